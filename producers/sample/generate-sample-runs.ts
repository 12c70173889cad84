// Deterministic sample agent traffic: realistic AgentRunEvents from several agents and tenants,
// each with its own trace context. Same seed and clock readings → the same runs, byte for byte.
// The mix is tuned so code scorers (keyword coverage, completeness, tool accuracy) see a spread
// of scores: most answers are complete, some partial or off topic, some tools fail.
//
// A run is built by build-run.ts, in a conversation of conversations.ts, from the mix of
// run-mix.ts; degradation.ts says when an agent answers badly.
import { ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';
import type { Context, SpanContext } from '@opentelemetry/api';
import type { AgentRunEventInput } from '../../src/kit/contracts/agent-run-event.ts';
import type { AnswerQuality } from './build-messages.ts';
import { buildRun } from './build-run.ts';
import { Conversations } from './conversations.ts';
import type { Degradation } from './degradation.ts';
import { createRandom } from './prng.ts';

export type SampleRun = {
  event: AgentRunEventInput;
  /** The agent run's span: publish the run inside it (`sampleRunContext`) to link scores to it. */
  spanContext: SpanContext;
  /** The answer the agent gave, as the catalogue grades it ('none': no answer text): what a simulated person reacts to (sample-feedback.ts). */
  answer: AnswerQuality | 'none';
};

export type SampleRunGeneratorOptions = {
  /** Default 'scorestream'. */
  seed?: string | number;
  /** When each run completes; default the system clock. */
  clock?: () => Date;
  /** Share of runs whose trace is sampled (W3C sampled flag); default 0.9. */
  sampledRatio?: number;
  /** Also put the trace context in the event body (`trace`), for header-less transports. */
  includeTraceInBody?: boolean;
  /** Episodes in which one agent answers badly (the demo's monitor fires on them; docs/alerts.md). */
  degradation?: Degradation;
};

export type SampleRunGenerator = { next(): SampleRun };

/** The context to publish a sample run in: its span as the (remote) parent. */
export function sampleRunContext(sample: SampleRun): Context {
  return trace.setSpanContext(ROOT_CONTEXT, sample.spanContext);
}

export function createSampleRunGenerator(options: SampleRunGeneratorOptions = {}): SampleRunGenerator {
  const random = createRandom(options.seed ?? 'scorestream');
  const clock = options.clock ?? (() => new Date());
  const sampledRatio = options.sampledRatio ?? 0.9;
  const conversations = new Conversations();
  return {
    next() {
      const finishedAt = clock();
      const spanContext: SpanContext = {
        traceId: random.hex(32),
        spanId: random.hex(16),
        traceFlags: random.chance(sampledRatio) ? TraceFlags.SAMPLED : TraceFlags.NONE,
      };
      const { event, answer } = buildRun(random, finishedAt, options.degradation, conversations.nextTurn(random, finishedAt.getTime()), (started) => conversations.started(started, finishedAt.getTime()));
      if (options.includeTraceInBody === true) {
        event.trace = { traceparent: `00-${spanContext.traceId}-${spanContext.spanId}-0${spanContext.traceFlags}` };
      }
      return { event, spanContext, answer };
    },
  };
}

export function generateSampleRuns(count: number, options: SampleRunGeneratorOptions = {}): SampleRun[] {
  const generator = createSampleRunGenerator(options);
  return Array.from({ length: count }, () => generator.next());
}
