// What a V8 CPU profile of a benchmark child says, in the terms the targets are argued in: busy CPU
// by part of the per-message path (the work the design requires — the Kafka client, JSON, the
// contract's validation, the scorers — and the service's own), then the top frames by self time.
// `npm run bench:pipeline -- --profile` writes one profile per service child, named by scenario
// (child-protocol.ts); this reads a directory of them, or one file.
// Usage: node bench/pipeline/profile-summary.ts <directory | file.cpuprofile> [--top N]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';

type CallFrame = { functionName: string; url: string; lineNumber: number };
type ProfileNode = { id: number; callFrame: CallFrame; children?: number[] };
type CpuProfile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };

/**
 * Work that is not the per-message path wherever it happens: loading modules (a module's own body
 * too), and making the benchmark's traffic. A sample with such a frame anywhere in its stack is
 * counted there.
 */
const STACK_PARTS: readonly { part: string; matches: (frame: CallFrame) => boolean }[] = [
  { part: 'start-up (module loading)', matches: ({ functionName, url }) => /internal\/modules\/|wasm:|amaro/.test(url) || functionName === 'compileSourceTextModule' },
  { part: 'benchmark traffic (event and OTLP generation)', matches: ({ url }) => /producers\/sample\/|test\/helpers\//.test(url) },
];

/**
 * Otherwise a sample belongs to the first part, walking from its leaf frame up, whose rule its
 * frame matches; the order matters (a JSON.stringify under the emitter is "record JSON", not "emitter").
 */
const PARTS: readonly { part: string; matches: (frame: CallFrame) => boolean }[] = [
  { part: 'garbage collection', matches: ({ functionName }) => functionName === '(garbage collector)' },
  { part: 'benchmark harness', matches: ({ url }) => url.includes('/bench/') },
  // ajv's compiled validator runs as generated code without a file (`validate20`…).
  { part: 'floor: contract validation (ajv, zod)', matches: ({ url, functionName }) => /node_modules\/(zod|ajv)\/|contracts\/compiled-run-event/.test(url) || (url === '' && /^validate\d+$/.test(functionName)) },
  { part: 'floor: UTF-8 and JSON.parse', matches: ({ url, functionName }) => /contracts\/decode-record|contracts\/encoded-bytes|internal\/encoding/.test(url) || functionName === 'decodeUTF8' },
  { part: 'floor: score records to JSON', matches: ({ url, functionName }) => url.includes('contracts/fit-score-record') && functionName === 'stringify' },
  { part: 'floor: the scorers', matches: ({ url }) => /src\/scorers\/|src\/utils\//.test(url) },
  { part: 'floor: Kafka client', matches: ({ url }) => /node_modules\/(@platformatic|kafkajs)/.test(url) },
  { part: 'OTLP decoding (protobufjs)', matches: ({ url }) => url.includes('node_modules/protobufjs/') },
  { part: 'own: score ids (SHA-256)', matches: ({ url }) => /contracts\/deterministic-id|internal\/crypto/.test(url) },
  { part: 'own: redaction and evidence', matches: ({ url }) => url.includes('src/engine/data-handling/') },
  { part: 'own: OpenTelemetry (API, SDK, export)', matches: ({ url }) => url.includes('node_modules/@opentelemetry/') || url.includes('/otel/') },
  { part: 'own: scorer pipeline (run)', matches: ({ url }) => url.includes('/src/kit/scorer/') },
  { part: 'own: OTLP assembly and run mapping', matches: ({ url }) => url.includes('/src/engine/otlp/') || url.includes('consumers/otlp-source') },
  { part: 'own: eligibility, outcomes, records', matches: ({ url }) => /src\/(pipeline|eligibility|verdict|contracts|budget|threads)\//.test(url) },
  { part: 'own: emitter and publisher', matches: ({ url }) => /consumers\/(emitter\/|publish-until|record-sink)|producers\//.test(url) },
  { part: 'own: message path, consumer, Kafka adapter', matches: ({ url }) => /\/(consumers|kafka|service)\//.test(url) },
];
const OTHER = 'other (Node internals, microtasks, V8)';

function label(frame: CallFrame): string {
  const where = frame.url.replace(/^.*?node_modules\//, '').replace(/^file:\/\/.*?\/(bench|consumers|kafka|otel|producers|service|src|test)\//, '$1/');
  return `${frame.functionName || '(anonymous)'} ${where}${where === '' ? '' : `:${frame.lineNumber + 1}`}`;
}

export type ProfileSummary = { busySeconds: number; idleSeconds: number; parts: [string, number][]; topSelf: [string, number][] };

export function summariseProfile(profile: CpuProfile, top = 15): ProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const parts = new Map<string, number>();
  const self = new Map<string, number>();
  let busy = 0;
  let idle = 0;
  profile.samples.forEach((sample, index) => {
    const micros = profile.timeDeltas[index] ?? 0;
    const leaf = byId.get(sample)!.callFrame;
    if (leaf.functionName === '(idle)') {
      idle += micros;
      return;
    }
    busy += micros;
    self.set(label(leaf), (self.get(label(leaf)) ?? 0) + micros);
    const stack: CallFrame[] = [];
    for (let id: number | undefined = sample; id !== undefined; id = parentOf.get(id)) stack.push(byId.get(id)!.callFrame);
    let part = STACK_PARTS.find((rule) => stack.some((frame) => rule.matches(frame)))?.part;
    for (const frame of stack) {
      if (part !== undefined) break;
      part = PARTS.find((rule) => rule.matches(frame))?.part;
    }
    parts.set(part ?? OTHER, (parts.get(part ?? OTHER) ?? 0) + micros);
  });
  const share = (entries: Map<string, number>) => [...entries].sort((a, b) => b[1] - a[1]).map(([name, micros]): [string, number] => [name, micros / busy]);
  return { busySeconds: busy / 1e6, idleSeconds: idle / 1e6, parts: share(parts), topSelf: share(self).slice(0, top) };
}

function render(name: string, summary: ProfileSummary): string {
  const percent = (fraction: number) => `${(fraction * 100).toFixed(1).padStart(5)}%`;
  return [
    `## ${name}: ${summary.busySeconds.toFixed(2)} s busy, ${summary.idleSeconds.toFixed(2)} s idle`,
    'busy CPU by part:',
    ...summary.parts.map(([part, fraction]) => `  ${percent(fraction)}  ${part}`),
    'top frames by self time:',
    ...summary.topSelf.map(([frame, fraction]) => `  ${percent(fraction)}  ${frame}`),
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [target, ...rest] = process.argv.slice(2);
  if (target === undefined) {
    console.error('usage: node bench/pipeline/profile-summary.ts <directory | file.cpuprofile> [--top N]');
    process.exit(2);
  }
  const topIndex = rest.indexOf('--top');
  const top = topIndex === -1 ? 15 : Number(rest[topIndex + 1]);
  const files = statSync(target).isDirectory()
    ? readdirSync(target)
        .filter((file) => file.endsWith('.cpuprofile'))
        .sort()
        .map((file) => join(target, file))
    : [target];
  for (const file of files) console.log(`${render(basename(file), summariseProfile(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile, top))}\n`);
}
