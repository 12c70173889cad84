// What the runs topic carries, and how the service reads it (`input` in defineConfig):
//   - 'run-event' (default): one AgentRunEvent per message (docs/contracts.md);
//   - 'otlp': what an OpenTelemetry Collector's kafka exporter writes (`otlp_spans` by default):
//     OTLP trace batches in `otlp_proto` or `otlp_json`, assembled into agent runs per trace
//     (src/engine/otlp/, docs/otlp.md). The assembly's bounds and its grace period are set here.
import { z } from 'zod';
import { OTLP_ENCODINGS } from '../otlp/otlp-encodings.ts';
import { NESTED_AGENT_MODES } from '../otlp/find-runs.ts';

export const INPUT_FORMATS = ['run-event', 'otlp'] as const;

export const OTLP_DEFAULTS = {
  encoding: 'otlp_proto',
  gracePeriodMs: 2_000,
  idleTimeoutMs: 10_000,
  maxOpenTraces: 10_000,
  maxSpansPerTrace: 2_000,
  nestedAgents: 'outermost',
  rootSpanRuns: true,
} as const;

const positiveInt = z.number().int().positive();

export const otlpInputSchema = z.strictObject({
  format: z.literal('otlp'),
  /** The Collector kafka exporter's `encoding` (default otlp_proto); env SCORESTREAM_INPUT_ENCODING. */
  encoding: z.enum(OTLP_ENCODINGS).default(OTLP_DEFAULTS.encoding),
  /** After an agent (or root) span arrived, wait this long for descendants exported in later batches. */
  gracePeriodMs: z.number().int().nonnegative().default(OTLP_DEFAULTS.gracePeriodMs),
  /** A trace that saw no span for this long and never showed an agent or root span is dropped (incomplete_trace). */
  idleTimeoutMs: positiveInt.default(OTLP_DEFAULTS.idleTimeoutMs),
  /** Open traces buffered at once, over every claimed partition; on overflow the oldest is closed (assembly_overflow). */
  maxOpenTraces: positiveInt.default(OTLP_DEFAULTS.maxOpenTraces),
  /** Spans buffered per trace; a trace reaching it is closed at once. */
  maxSpansPerTrace: positiveInt.default(OTLP_DEFAULTS.maxSpansPerTrace),
  /** 'outermost' (default): an agent inside another agent's span is part of the outer run; 'each': every agent span is a run of the spans nearest it. */
  nestedAgents: z.enum(NESTED_AGENT_MODES).default(OTLP_DEFAULTS.nestedAgents),
  /** A trace without any agent span: its root span is a run when its subtree holds a model call (default true). */
  rootSpanRuns: z.boolean().default(OTLP_DEFAULTS.rootSpanRuns),
});

export const inputSchema = z
  .discriminatedUnion('format', [z.strictObject({ format: z.literal('run-event') }), otlpInputSchema], {
    error: `expected input.format to be one of ${INPUT_FORMATS.map((format) => `'${format}'`).join(', ')}`,
  })
  .prefault({ format: 'run-event' });

export type OtlpInputConfig = z.output<typeof otlpInputSchema>;
export type InputConfig = z.output<typeof inputSchema>;
