// Shared pieces for the pipeline tests: parsed run events, their run facts, bindings resolved
// the way the service resolves them, and hand-completed promises. (Judges: mockJudge().)
import { resolveConfig } from '../../../../../src/engine/config/resolve-config.ts';
import type { ResolvedBinding } from '../../../../../src/engine/config/resolve-config.ts';
import type { ScorerBindingInput } from '../../../../../src/engine/config/config-types.ts';
import type { AgentRunEvent } from '../../../../../src/kit/contracts/agent-run-event.ts';
import { parseAgentRunEvent } from '../../../../../src/kit/contracts/parse.ts';
import { collectRunFacts } from '../../../../../src/engine/pipeline/run-facts.ts';
import type { RunFacts, RunTraceFacts } from '../../../../../src/engine/pipeline/run-facts.ts';
import { testRun, traceFor } from '../../../../helpers/runs.ts';
import type { TestRunOptions } from '../../../../helpers/runs.ts';

export const source = { topic: 'agent-runs', partition: 2, offset: '1041' };

export function runEvent(options: TestRunOptions): AgentRunEvent {
  const parsed = parseAgentRunEvent(testRun({ timestamp: '2026-11-29T12:00:00.000Z', ...options }));
  if (!parsed.success) throw new Error(`test event is invalid: ${JSON.stringify(parsed.problems)}`);
  return parsed.data;
}

/** Facts of a run; `trace: true` gives it the deterministic trace context of traceFor(runId). */
export function runFacts(options: TestRunOptions & { trace?: boolean | RunTraceFacts; sampled?: boolean }): RunFacts {
  const { trace, sampled, ...runOptions } = options;
  let traceFacts: RunTraceFacts = {};
  if (trace === true) {
    const { traceId, spanId } = traceFor(options.runId);
    traceFacts = { traceId, spanId, sampled: sampled ?? true };
  } else if (typeof trace === 'object') traceFacts = trace;
  return collectRunFacts(runEvent(runOptions), source, traceFacts);
}

/** Bindings exactly as the service gets them: through resolveConfig. */
export function bindings<Event = unknown>(...inputs: ScorerBindingInput<Event>[]): ResolvedBinding<Event>[] {
  return resolveConfig<Event>({ kafka: { brokers: ['localhost:9092'] }, scorers: inputs }).scorers;
}

export function binding<Event = unknown>(input: ScorerBindingInput<Event>): ResolvedBinding<Event> {
  return bindings(input)[0]!;
}

/** A promise with its resolve/reject handed out, for steps the test completes by hand. */
export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((resolveWith, rejectWith) => {
    resolve = resolveWith;
    reject = rejectWith;
  });
  return { promise, resolve, reject };
}
