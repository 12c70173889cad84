// `scorestream otlp inspect`: what the OTLP input (input.format 'otlp') makes of traces, without
// scoring anything — per trace, the runs it becomes, the rule that found each, what each carries
// and what was not mapped (docs/otlp.md, "Seeing why"). Reads a file (OTLP/JSON, one request or
// one per line as the Collector's file exporter writes, or one protobuf request) or a spans topic
// from its beginning to where it ended when the command started, group-less (kafka/read-range.ts):
// no group to join, grant or delete, nothing committed.
import { readFile } from 'node:fs/promises';
import { OTLP_DEFAULTS } from '../../src/engine/config/input-schema.ts';
import { isScorestreamSpan } from '../../src/engine/otlp/agent-spans.ts';
import { decodeOtlpTraces } from '../../src/engine/otlp/decode-otlp.ts';
import { NESTED_AGENT_MODES } from '../../src/engine/otlp/find-runs.ts';
import type { NestedAgentMode } from '../../src/engine/otlp/find-runs.ts';
import { inspectTrace } from '../../src/engine/otlp/inspect-trace.ts';
import { OTLP_ENCODINGS } from '../../src/engine/otlp/otlp-encodings.ts';
import type { OtlpEncoding } from '../../src/engine/otlp/otlp-encodings.ts';
import type { OtlpSpan } from '../../src/engine/otlp/otlp-span.ts';
import { createKafkaEdge } from '../../kafka/kafka-edge.ts';
import { kafkaSecurityFromEnvironment } from '../../kafka/kafka-security.ts';
import { explainKafkaError, kafkaPreflight } from '../../kafka/kafka-preflight.ts';
import { tlsOptions } from '../../kafka/service-access.ts';
import { resolveCliBrokers } from '../brokers.ts';
import { parseCommandArgs } from '../command-args.ts';
import { formatInspectedTrace } from '../format-inspection.ts';
import { terminalSafe } from '../terminal-text.ts';

const usage = `usage: scorestream otlp inspect (--file spans.json | [--topic otlp_spans] [--brokers host:port]) [options]
  --file F              OTLP/JSON (one ExportTraceServiceRequest, or one per line) or one protobuf request
  --topic T             the spans topic (default SCORESTREAM_TOPIC_RUNS or otlp_spans), read from its beginning to its end
  --encoding E          the topic's encoding: otlp_proto (default, or SCORESTREAM_INPUT_ENCODING) or otlp_json
  --max-messages N      read at most N messages of the topic (default 1000)
  --nested-agents M     outermost (default) or each, as input.nestedAgents
  --no-root-span-runs   as input.rootSpanRuns: false
  --json                one JSON object per trace instead of text`;

export async function run(argv: string[]): Promise<number> {
  const [subcommand, ...rest] = argv;
  if (subcommand !== 'inspect') {
    if (subcommand === '--help' || subcommand === '-h') {
      console.log(usage);
      return 0;
    }
    console.error(`scorestream otlp: unknown subcommand '${subcommand ?? ''}'\n${usage}`);
    return 2;
  }
  const args = parseCommandArgs(
    {
      args: rest,
      options: {
        file: { type: 'string' },
        topic: { type: 'string' },
        brokers: { type: 'string' },
        encoding: { type: 'string' },
        'max-messages': { type: 'string' },
        'nested-agents': { type: 'string' },
        'no-root-span-runs': { type: 'boolean' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    },
    usage,
  );
  if ('exitCode' in args) return args.exitCode;
  const { values } = args;
  const encoding = values.encoding ?? process.env.SCORESTREAM_INPUT_ENCODING ?? OTLP_DEFAULTS.encoding;
  if (!(OTLP_ENCODINGS as readonly string[]).includes(encoding)) return usageError(`--encoding must be one of ${OTLP_ENCODINGS.join(', ')}, not '${encoding}'`);
  const nestedAgents = values['nested-agents'] ?? OTLP_DEFAULTS.nestedAgents;
  if (!(NESTED_AGENT_MODES as readonly string[]).includes(nestedAgents)) return usageError(`--nested-agents must be one of ${NESTED_AGENT_MODES.join(', ')}, not '${nestedAgents}'`);
  const maxMessages = Number(values['max-messages'] ?? 1000);
  if (!Number.isInteger(maxMessages) || maxMessages <= 0) return usageError(`--max-messages must be a positive integer, not '${values['max-messages']}'`);

  const problems: string[] = [];
  const spans =
    values.file !== undefined
      ? spansOfFile(await readFile(values.file), values.file, problems)
      : await spansOfTopic({ topic: values.topic ?? process.env.SCORESTREAM_TOPIC_RUNS ?? 'otlp_spans', brokers: values.brokers, encoding: encoding as OtlpEncoding, maxMessages }, problems);
  for (const problem of problems) console.error(terminalSafe(problem));

  const own = spans.filter(isScorestreamSpan).length;
  const traces = new Map<string, OtlpSpan[]>();
  for (const span of spans) {
    if (isScorestreamSpan(span)) continue;
    const trace = traces.get(span.traceId);
    if (trace === undefined) traces.set(span.traceId, [span]);
    else trace.push(span);
  }
  const options = { nestedAgents: nestedAgents as NestedAgentMode, rootSpanRuns: values['no-root-span-runs'] !== true };
  let runs = 0;
  for (const trace of traces.values()) {
    const inspected = inspectTrace(trace, options);
    runs += inspected.runs.length;
    if (values.json) console.log(JSON.stringify({ ...inspected, outside: inspected.outside.map((entry) => entry.span.name), runs: inspected.runs.map((run) => ({ rule: run.run.rule, span: run.run.agentSpan.name, sources: run.run.sources, event: run.run.event, unmapped: run.unmapped })) }));
    else console.log(`${formatInspectedTrace(inspected)}\n`);
  }
  console.error(`${traces.size} traces, ${runs} runs${own === 0 ? '' : `; ${own} spans of Scorestream's own work left out`}`);
  return problems.length > 0 && spans.length === 0 ? 1 : 0;
}

function usageError(message: string): number {
  console.error(`${message}\n${usage}`);
  return 2;
}

/** A file's spans: OTLP/JSON (one object, or one per line) when it reads as JSON, else one protobuf request. */
export function spansOfFile(bytes: Buffer, name: string, problems: string[]): OtlpSpan[] {
  const text = bytes.toString('utf8').trimStart();
  if (!text.startsWith('{')) return decoded(bytes, 'otlp_proto', name, problems);
  try {
    JSON.parse(text);
    return decoded(Buffer.from(text), 'otlp_json', name, problems);
  } catch {
    return text
      .split('\n')
      .map((line, index) => ({ line: line.trim(), index }))
      .filter(({ line }) => line !== '')
      .flatMap(({ line, index }) => decoded(Buffer.from(line), 'otlp_json', `${name} line ${index + 1}`, problems));
  }
}

function decoded(bytes: Uint8Array, encoding: OtlpEncoding, where: string, problems: string[]): OtlpSpan[] {
  const result = decodeOtlpTraces(bytes, encoding);
  if (result.success) return result.data;
  problems.push(`${where}: ${result.code}: ${result.message}`);
  return [];
}

async function spansOfTopic(options: { topic: string; brokers: string | undefined; encoding: OtlpEncoding; maxMessages: number }, problems: string[]): Promise<OtlpSpan[]> {
  const brokers = await resolveCliBrokers({ brokers: options.brokers });
  const { settings, security, ...who } = kafkaSecurityFromEnvironment(process.env);
  const edge = createKafkaEdge({ clientId: 'scorestream-otlp-inspect', brokers, ...settings });
  const access = { brokers, ...who, topics: [{ topic: options.topic, operations: 'READ' as const }] };
  const spans: OtlpSpan[] = [];
  let read = 0;
  try {
    await kafkaPreflight(edge.connection, { tls: tlsOptions(security.ssl), existingTopics: [options.topic] }, access);
    // From its beginning to the end it had now, group-less; --max-messages stops it early.
    const range = edge.readRange({
      topics: [options.topic],
      from: 'beginning',
      until: 'end-at-start',
      onBatch: (_topic, partition, messages) => {
        for (const message of messages) {
          if (read >= options.maxMessages) return;
          read += 1;
          if (message.value === null) problems.push(`partition ${partition} offset ${message.offset}: a tombstone, skipped`);
          else spans.push(...decoded(message.value, options.encoding, `partition ${partition} offset ${message.offset}`, problems));
          if (read >= options.maxMessages) void range.stop();
        }
      },
    });
    await range.done.catch((error: unknown) => {
      throw explainKafkaError(error, access);
    });
  } finally {
    await edge.close();
  }
  if (read >= options.maxMessages) problems.push(`stopped after --max-messages ${options.maxMessages}: later messages of ${options.topic} were not read`);
  return spans;
}
