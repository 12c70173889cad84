import { trace, TraceFlags } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import type { AgentRunEventInput } from '../../../../src/kit/contracts/agent-run-event.ts';
import { parseAgentRunEvent } from '../../../../src/kit/contracts/parse.ts';
import { createSampleRunGenerator, generateSampleRuns, inDegradation, sampleRunContext } from '../../../../producers/sample/index.ts';
import { collectRunFacts } from '../../../../src/engine/pipeline/run-facts.ts';
import { buildScorerInput } from '../../../../src/engine/pipeline/scorer-input.ts';
import { runScorerToOutcome } from '../../../../src/engine/pipeline/scorer-outcome.ts';
import { createCompletenessScorer } from '../../../../src/kit/scorers/code/completeness/index.ts';
import type { SampleRun } from '../../../../producers/sample/index.ts';
import { createToolArgumentValidityScorer } from '../../../../src/kit/scorers/code/tool-argument-validity/index.ts';
import { createUnofferedToolCallsScorer } from '../../../../src/kit/scorers/code/unoffered-tool-calls/index.ts';
import { createRepeatedToolCallsScorer } from '../../../../src/kit/scorers/code/repeated-tool-calls/index.ts';

/** A clock that advances 250 ms per reading from a fixed start. */
function steppingClock(start = Date.parse('2025-03-01T10:00:00.000Z')) {
  let now = start;
  return () => new Date((now += 250));
}

const runs: SampleRun[] = generateSampleRuns(1500, { seed: 'test', clock: steppingClock() });
const events = runs.map((run) => run.event);
const parts = (event: AgentRunEventInput) => event.output.flatMap((message) => message.content.parts);
const invocations = (event: AgentRunEventInput) =>
  parts(event).flatMap((part) => (part.type === 'tool-invocation' ? [(part as { toolInvocation: { state: string; isError?: boolean; toolName: string } }).toolInvocation] : []));
const share = (predicate: (event: AgentRunEventInput) => boolean) => events.filter(predicate).length / events.length;

// Validating thousands of runs takes seconds on a loaded machine.
describe('generateSampleRuns', { timeout: 60_000 }, () => {
  it('is deterministic for a seed and clock', () => {
    const again = generateSampleRuns(50, { seed: 'test', clock: steppingClock() });
    expect(again).toEqual(runs.slice(0, 50));
    const other = generateSampleRuns(50, { seed: 'other', clock: steppingClock() });
    expect(other.map((run) => run.event.runId)).not.toEqual(again.map((run) => run.event.runId));
  });

  it('produces only runs valid against AgentRunEvent v1, also after a JSON round trip', () => {
    for (const event of events) {
      const parsed = parseAgentRunEvent(JSON.parse(JSON.stringify(event)));
      expect(parsed.success ? [] : parsed.problems).toEqual([]);
    }
  });

  it('gives every run a distinct id and its own valid trace, mostly sampled', () => {
    expect(new Set(events.map((event) => event.runId)).size).toBe(events.length);
    expect(new Set(runs.map((run) => run.spanContext.traceId)).size).toBe(runs.length);
    for (const run of runs) {
      expect(run.spanContext.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(run.spanContext.spanId).toMatch(/^[0-9a-f]{16}$/);
    }
    const sampled = runs.filter((run) => run.spanContext.traceFlags === TraceFlags.SAMPLED).length / runs.length;
    expect(sampled).toBeGreaterThan(0.8);
    expect(sampled).toBeLessThan(0.97);
  });

  it('takes completion times from the clock, with messages before completion', () => {
    expect(events[0]!.timestamp).toBe('2025-03-01T10:00:00.250Z');
    expect(events[1]!.timestamp).toBe('2025-03-01T10:00:00.500Z');
    for (const event of events.slice(0, 100)) {
      const done = Date.parse(event.timestamp);
      for (const message of [...event.input.inputMessages, ...event.input.rememberedMessages, ...event.output]) {
        expect(Date.parse(message.createdAt)).toBeLessThanOrEqual(done);
      }
    }
  });

  it('covers several agents, a workflow and several tenants', () => {
    expect(new Set(events.map((event) => event.entity.id)).size).toBeGreaterThanOrEqual(4);
    expect(new Set(events.map((event) => event.entity.type))).toEqual(new Set(['agent', 'workflow']));
    expect(new Set(events.map((event) => event.metadata?.tenantId)).size).toBeGreaterThanOrEqual(5);
    expect(new Set(events.map((event) => event.metadata?.environment))).toEqual(new Set(['production', 'staging']));
    const context = events[0]!.requestContext as { tenantId: string; tier: string; locale: string; user: { plan: string } };
    expect(context).toMatchObject({ tenantId: expect.any(String), tier: expect.any(String), locale: expect.any(String), user: { plan: expect.any(String) } });
  });

  it('mixes conversation shapes: memory, tagged system messages, reasoning, data and source parts, split responses', () => {
    expect(share((event) => event.input.rememberedMessages.length > 0)).toBeGreaterThan(0.3);
    expect(share((event) => (event.input.taggedSystemMessages.memory ?? []).length > 0)).toBeGreaterThan(0.3);
    expect(share((event) => event.input.systemMessages.length > 1)).toBeGreaterThan(0.2);
    expect(share((event) => parts(event).some((part) => part.type === 'reasoning'))).toBeGreaterThan(0.3);
    expect(share((event) => parts(event).some((part) => part.type.startsWith('data-')))).toBeGreaterThan(0);
    expect(share((event) => parts(event).some((part) => part.type === 'source'))).toBeGreaterThan(0);
    expect(share((event) => event.output.length > 1)).toBeGreaterThan(0.05);
    expect(share((event) => event.groundTruth !== undefined)).toBeGreaterThan(0.2);
  });

  it('mixes tool behaviour: several calls per run, reported and thrown failures, wrong tools, none at all', () => {
    expect(share((event) => invocations(event).length >= 2)).toBeGreaterThan(0.3);
    expect(share((event) => invocations(event).some((call) => call.state === 'result' && call.isError === true))).toBeGreaterThan(0.05);
    expect(share((event) => invocations(event).some((call) => call.state === 'output-error'))).toBeGreaterThan(0.05);
    expect(share((event) => invocations(event).length === 0)).toBeGreaterThan(0.05);
    expect(share((event) => invocations(event).some((call) => call.toolName === 'createTicket'))).toBeGreaterThan(0);
  });

  it('fails in trajectories too: unoffered tools, loops and bad arguments, each seen by its scorer and only where it was put', async () => {
    const validity = createToolArgumentValidityScorer();
    const unoffered = createUnofferedToolCallsScorer();
    const repeated = createRepeatedToolCallsScorer();
    const below = { validity: 0, unoffered: 0, repeated: 0 };
    for (const event of events) {
      expect(event.tools?.length, 'every sample run says what its agent was offered').toBeGreaterThan(0);
      const parsed = parseAgentRunEvent(JSON.parse(JSON.stringify(event)));
      if (!parsed.success) throw new Error('invalid sample run');
      const run = { runId: parsed.data.runId, input: parsed.data.input, output: parsed.data.output, tools: parsed.data.tools };
      const [checked, offered, loops] = await Promise.all([validity.run(run), unoffered.run(run), repeated.run(run)]);
      if (checked.score !== undefined && checked.score < 1) {
        below.validity += 1;
        // Only the forgotten first argument is refused: the offered schemas accept every right call.
        for (const call of (checked.preprocessStepResult as { invalidCalls: { problems: string[] }[] }).invalidCalls) {
          expect(call.problems.join('; ')).toMatch(/must have required property/);
        }
      }
      if (offered.score !== undefined && offered.score < 1) below.unoffered += 1;
      if (loops.score !== undefined && loops.score < 1) below.repeated += 1;
    }
    for (const [scorer, count] of Object.entries(below)) {
      expect(count / events.length, scorer).toBeGreaterThan(0.005);
      expect(count / events.length, scorer).toBeLessThan(0.08);
    }
  });

  it('includes failed runs, usage and durations', () => {
    expect(share((event) => event.error !== undefined)).toBeGreaterThan(0.01);
    expect(share((event) => event.error !== undefined)).toBeLessThan(0.1);
    for (const event of events) {
      expect(event.usage!.totalTokens).toBe(event.usage!.inputTokens! + event.usage!.outputTokens!);
      expect(event.durationMs).toBeGreaterThan(0);
    }
  });

  it('spreads answer quality, so keyword-style scores vary', () => {
    const answerOf = (event: AgentRunEventInput) => event.output.map((message) => message.content.content ?? '').join(' ').toLowerCase();
    const coverage = runs.map(({ event }) => {
      const expected = (event.groundTruth as string | undefined) ?? '';
      const words = expected.toLowerCase().split(/\W+/).filter((word) => word.length > 5);
      if (words.length === 0) return undefined;
      return words.filter((word) => answerOf(event).includes(word)).length / words.length;
    }).filter((value): value is number => value !== undefined);
    const buckets = new Set(coverage.map((value) => Math.min(4, Math.floor(value * 5))));
    expect(buckets.size).toBeGreaterThanOrEqual(4);
    expect(coverage.filter((value) => value === 1).length / coverage.length).toBeGreaterThan(0.3);
    expect(coverage.filter((value) => value < 0.3).length / coverage.length).toBeGreaterThan(0.1);
  });

  it('can carry the trace in the body too, matching the span context', () => {
    const [run] = generateSampleRuns(1, { seed: 'body', includeTraceInBody: true });
    const flags = run!.spanContext.traceFlags === TraceFlags.SAMPLED ? '01' : '00';
    expect(run!.event.trace).toEqual({ traceparent: `00-${run!.spanContext.traceId}-${run!.spanContext.spanId}-${flags}` });
    expect(runs[0]!.event.trace).toBeUndefined();
  });

  it('gives a context holding the run span', () => {
    expect(trace.getSpanContext(sampleRunContext(runs[0]!))).toEqual(runs[0]!.spanContext);
  });

  it('streams runs from a generator', () => {
    const generator = createSampleRunGenerator({ seed: 'test', clock: steppingClock() });
    expect(generator.next()).toEqual(runs[0]);
    expect(generator.next()).toEqual(runs[1]);
  });

  it('holds multi-turn conversations: a thread keeps its tenant, user and agent across its turns, and some come back after a quiet half minute', () => {
    const threadOf = (event: AgentRunEventInput) => (event.input.inputMessages[0] as { threadId?: string }).threadId!;
    const byThread = new Map<string, AgentRunEventInput[]>();
    for (const event of events) byThread.set(threadOf(event), [...(byThread.get(threadOf(event)) ?? []), event]);
    const multiTurn = [...byThread.values()].filter((turns) => turns.length > 1);
    // About half the runs continue a conversation.
    expect(events.length - byThread.size).toBeGreaterThan(events.length * 0.3);
    expect(Math.max(...multiTurn.map((turns) => turns.length))).toBeGreaterThanOrEqual(4);
    for (const turns of multiTurn) {
      expect(new Set(turns.map((event) => `${event.metadata?.tenantId} ${(event.requestContext?.user as { id: string }).id} ${event.entity.id}`)).size).toBe(1);
    }
    // A resumed thread: a turn at least 30 s (120 runs of this clock) after the one before it, past a 20 s idle gap.
    const position = new Map(events.map((event, index) => [event, index]));
    const gaps = multiTurn.flatMap((turns) => turns.slice(1).map((event, index) => position.get(event)! - position.get(turns[index]!)!));
    expect(gaps.filter((gap) => gap >= 120).length).toBeGreaterThanOrEqual(3);
  });
});

describe('a degradation episode', { timeout: 60_000 }, () => {
  const start = Date.parse('2025-03-01T10:00:00.000Z');
  // Episodes of 60 s every 200 s, the first 50 s in: readings at 250 ms steps.
  const degradation = { agentId: 'support-agent', startsAt: start + 50_000, durationMs: 60_000, everyMs: 200_000 };
  const degradedRuns = generateSampleRuns(1600, { seed: 'test', clock: steppingClock(start), degradation }).map((run) => run.event);
  const inEpisode = (event: AgentRunEventInput) => inDegradation(degradation, Date.parse(event.timestamp));

  it('tells episodes by the clock: from startsAt for durationMs, every everyMs', () => {
    expect([start, start + 49_999, start + 50_000, start + 109_999, start + 110_000, start + 250_000, start + 310_000].map((at) => inDegradation(degradation, at))).toEqual([false, false, true, true, false, true, false]);
    expect(inDegradation({ ...degradation, everyMs: undefined }, start + 250_000)).toBe(false);
  });

  it("lowers only that agent's completeness, inside the episodes, and the scores come back after", async () => {
    const scorer = createCompletenessScorer();
    const mean = async (selected: AgentRunEventInput[]) => {
      let sum = 0;
      for (const event of selected) {
        const parsed = parseAgentRunEvent(event);
        if (!parsed.success) throw new Error('invalid sample run');
        const outcome = await runScorerToOutcome(scorer, buildScorerInput(collectRunFacts(parsed.data, { topic: 't', partition: 0, offset: '0' }, {})), { timeoutMs: 10_000 });
        sum += outcome.status === 'scored' ? outcome.score : 0;
      }
      return sum / selected.length;
    };
    const support = (event: AgentRunEventInput) => event.entity.id === 'support-agent';
    const degradedSupport = degradedRuns.filter((event) => support(event) && inEpisode(event));
    const normalSupport = degradedRuns.filter((event) => support(event) && !inEpisode(event));
    expect(degradedSupport.length).toBeGreaterThan(50);
    expect(await mean(degradedSupport)).toBeLessThan((await mean(normalSupport)) - 0.25);
    const others = (list: AgentRunEventInput[]) => list.filter((event) => !support(event) && inEpisode(event));
    expect(Math.abs((await mean(others(degradedRuns))) - (await mean(others(events))))).toBeLessThan(0.1);
  });
});
