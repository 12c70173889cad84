// The thread state machine alone (no Kafka): N conversations of T turns applied to one partition's
// ThreadState with two thread bindings, then the partition restored from its changelog records
// into a fresh state, then every thread closed by the clock. Beside it, in the same run, the floor: the
// same turn texts kept in a plain Map (what holding the turns costs at least) — the ratios say what
// the machine adds. Heap figures are taken after a full GC. Each turn is a real ThreadTurn text
// (buildThreadTurn of a 3-message run, ~1.5 kB), its run and thread ids substituted.
// Usage: node --expose-gc bench/thread-state.bench.ts [threads=100000] [turnsPerThread=3]
import { threadKeyFor } from '../src/kit/contracts/thread-ids.ts';
import { threadTurnSchema } from '../src/kit/contracts/thread-turn.ts';
import { resolveConfig } from '../src/engine/config/resolve-config.ts';
import { collectRunFacts } from '../src/engine/pipeline/run-facts.ts';
import { parseAgentRunEvent } from '../src/kit/contracts/parse.ts';
import { createScorer } from '../src/kit/scorer/create-scorer.ts';
import { buildThreadTurn } from '../src/engine/threads/build-thread-turn.ts';
import { threadPoliciesOf } from '../src/engine/threads/thread-part.ts';
import { createThreadState } from '../src/engine/threads/thread-state.ts';
import { turnEntryOf } from '../src/engine/threads/turn-entry.ts';
import type { TurnEntry } from '../src/engine/threads/turn-entry.ts';
import { testRun } from '../test/helpers/runs.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with node --expose-gc: heap figures are taken after a full collection');
const threads = Number(process.argv[2] ?? 100_000);
const turnsPerThread = Number(process.argv[3] ?? 3);
const heapBytes = () => {
  gc();
  return process.memoryUsage().heapUsed;
};
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
const rate = (count: number, ms: number) => Math.round(count / (ms / 1000)).toLocaleString('en');

// One real turn as the run path would re-key it; every other turn is it with other ids.
const event = parseAgentRunEvent({ ...testRun({ runId: 'run-template', tenantId: 'acme' }), timestamp: '2026-11-29T12:00:00.000Z' });
if (!event.success) throw new Error('the template run is invalid');
const withThread = { ...event.data, metadata: { ...event.data.metadata, conversationId: 't-template' } };
const template = buildThreadTurn(collectRunFacts(withThread, { topic: 'agent-runs', partition: 0, offset: '0' }, { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', sampled: true }), { records: [], decisions: [] }, { maxTurnBytes: 65_536 })!;
const templateTurn = threadTurnSchema.parse(JSON.parse(template.json));
const entryFor = (thread: number, turn: number): TurnEntry => {
  const runId = `run-${thread}-${turn}`;
  const threadId = `t-${thread}`;
  // Through a Buffer, as a consumer decodes a message: a flat string of its own (replaceAll alone
  // would give a string that shares the template's memory, and flatter the heap figures).
  const json = Buffer.from(template.json.replaceAll('run-template', runId).replaceAll('t-template', threadId)).toString('utf8');
  const base = turnEntryOf(templateTurn, json);
  const timestampMs = base.timestampMs + turn * 60_000;
  // Objects of its own too, as each decoded turn has.
  return { ...base, key: threadKeyFor('acme', threadId), threadId, runId, timestampMs, anchor: { runId, timestampMs, source: { ...base.anchor.source }, trace: { ...base.anchor.trace } } };
};

const scorer = (id: string) => createScorer({ id, description: 'd' }).generateScore(() => 1);
const bindings = resolveConfig({ kafka: { brokers: ['localhost:9092'] }, scorers: [{ scorer: scorer('conversation-resolution'), level: 'thread' }, { scorer: scorer('turn-count'), level: 'thread', thread: { onResume: 'segment' } }] }).threadScorers;
const policies = threadPoliciesOf(bindings);
const admissions = new Map(policies.map((policy) => [policy.binding, { eligible: true as const }]));
const limits = { maxThreads: threads, maxStateBytes: 64 * 1024 ** 3, maxThreadBytes: 524_288, stateTtlMs: 604_800_000 };
const t0 = Date.parse('2026-11-29T12:00:00.000Z');
const total = threads * turnsPerThread;

// Turn texts are made before anything is timed; the heap figures count them where they are held.
const makeEntries = (): TurnEntry[] => {
  const made: TurnEntry[] = [];
  for (let turn = 0; turn < turnsPerThread; turn += 1) for (let thread = 0; thread < threads; thread += 1) made.push(entryFor(thread, turn));
  return made;
};
const emptyHeap = heapBytes();

/** The floor: the turn texts in a Map by thread key, nothing else. */
function measureFloor(): { ms: number; bytes: number } {
  const entries = makeEntries();
  const started = performance.now();
  const floor = new Map<string, string[]>();
  for (const entry of entries) {
    const list = floor.get(entry.key);
    if (list === undefined) floor.set(entry.key, [entry.json]);
    else list.push(entry.json);
  }
  const ms = performance.now() - started;
  entries.length = 0;
  const bytes = heapBytes() - emptyHeap;
  // Used after the measurement, or an optimised frame may let the collector take it before (liveness).
  if (floor.size !== threads) throw new Error(`the floor holds ${floor.size} threads`);
  return { ms, bytes };
}

/** The machine: every turn applied (its changelog value serialised, as each write effect carries it). */
function measureState(): { state: ReturnType<typeof createThreadState>; ms: number; bytes: number; writtenBytes: number } {
  const entries = makeEntries();
  const state = createThreadState({ policies, limits });
  let writtenBytes = 0;
  const started = performance.now();
  entries.forEach((entry, index) => {
    const now = t0 + Math.floor(index / threads) * 60_000 + (index % threads);
    for (const effect of state.applyTurn(entry, now, state.missingAdmissions(entry.key).length === 0 ? undefined : admissions)) {
      if (effect.type === 'write') writtenBytes += effect.value.length;
    }
  });
  const ms = performance.now() - started;
  entries.length = 0;
  return { state, ms, bytes: heapBytes() - emptyHeap, writtenBytes };
}

const { ms: floorMs, bytes: floorBytes } = measureFloor();
const { state, ms: applyMs, bytes: stateBytes, writtenBytes } = measureState();
const stats = state.stats();

// The compacted changelog: each thread's record and its held turns' records, as a restore reads them.
const records: { key: string; value: string }[] = [];
for (let thread = 0; thread < threads; thread += 1) records.push(...state.recordsOf(threadKeyFor('acme', `t-${thread}`)));
let changelogBytes = 0;
for (const record of records) changelogBytes += record.value.length;

let started = performance.now();
const restored = createThreadState({ policies, limits });
for (const { key, value } of records) {
  const outcome = restored.restore(key, value);
  if (!outcome.restored) throw new Error(outcome.problem);
}
const { problems } = restored.finishRestore();
if (problems.length > 0) throw new Error(problems[0]!.problem);
const restoreMs = performance.now() - started;

// Every thread closed by the clock (both bindings), on the restored state.
const deadline = restored.nextDeadline()!;
started = performance.now();
const closed = restored.advance(deadline + 60 * 60_000);
const advanceMs = performance.now() - started;
const closes = closed.filter((effect) => effect.type === 'close').length;

const rss = process.resourceUsage().maxRSS * 1024;
console.log(`Thread state, ${threads.toLocaleString('en')} threads × ${turnsPerThread} turns (${total.toLocaleString('en')} turns of ${template.bytes} bytes), 2 thread bindings, one partition\n`);
console.log('| | floor: the turn texts in a Map | ThreadState | ratio |\n|---|---:|---:|---:|');
console.log(`| heap after GC, all threads open (turn texts included) | ${mb(floorBytes)} MB | ${mb(stateBytes)} MB | ${(stateBytes / floorBytes).toFixed(2)}× |`);
console.log(`| heap per open thread | ${Math.round(floorBytes / threads)} B | ${Math.round(stateBytes / threads)} B | |`);
console.log(`| apply, turns/s | ${rate(total, floorMs)} | ${rate(total, applyMs)} (with changelog records, ${mb(writtenBytes)} MB written) | ${(floorMs / applyMs).toFixed(3)}× |`);
console.log(`\nstate: ${JSON.stringify(stats)}`);
console.log(`changelog (compacted): ${records.length.toLocaleString('en')} records, ${mb(changelogBytes)} MB; restore ${(restoreMs / 1000).toFixed(2)} s (${rate(threads, restoreMs)} threads/s)`);
console.log(`advance past every idle deadline: ${closes.toLocaleString('en')} closes in ${(advanceMs / 1000).toFixed(2)} s (${rate(closes, advanceMs)} closes/s, with their changelog records)`);
console.log(`peak RSS ${mb(rss)} MB`);
