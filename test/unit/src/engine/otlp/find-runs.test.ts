// The order of the runs a trace yields, and of the spans a run owns, does not depend on the order
// in which the spans arrived: spans that start in the same millisecond (an agent and the agent it
// calls at once, as the AI SDK records them) are ordered by nesting — a parent before its child —
// then by start time, then by span id. Spans built by hand, so the times tie exactly.
import { describe, expect, it } from 'vitest';
import { findRuns, runsOfTrace } from '../../../../../src/engine/otlp/find-runs.ts';
import type { OtlpAttributes, OtlpSpan } from '../../../../../src/engine/otlp/otlp-span.ts';
import { runsFromTrace } from '../../../../../src/engine/otlp/run-from-trace.ts';

function span(id: number, parent: number | undefined, startTimeMs: number, attributes: OtlpAttributes = {}): OtlpSpan {
  return {
    traceId: 'a'.repeat(32),
    spanId: id.toString(16).padStart(16, '0'),
    ...(parent === undefined ? {} : { parentSpanId: parent.toString(16).padStart(16, '0') }),
    name: `span-${id}`,
    startTimeMs,
    endTimeMs: startTimeMs + 100,
    attributes,
    events: [],
    status: { code: 0 },
    resource: {},
  };
}

const agent = (name?: string): OtlpAttributes => ({ 'gen_ai.operation.name': 'invoke_agent', ...(name === undefined ? {} : { 'gen_ai.agent.name': name }) });
const tool: OtlpAttributes = { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'ask' };
const idsOf = (spans: readonly { spanId: string }[]) => spans.map((entry) => Number.parseInt(entry.spanId, 16));

/** Every order of `spans` that a test looks at: as given, reversed, and each one moved to the front. */
function arrivals(spans: readonly OtlpSpan[]): OtlpSpan[][] {
  return [[...spans], [...spans].reverse(), ...spans.map((first) => [first, ...spans.filter((other) => other !== first)])];
}

describe('findRuns: order', () => {
  // 1 planner ─ 2 tool ─ 5 weather ─ 6 forecaster (started a millisecond "before" its parent: another host's clock)
  //           └ 4 summariser
  // planner, its tool, weather and summariser start in the same millisecond.
  const trace = [span(1, undefined, 1_000, agent('planner')), span(2, 1, 1_000, tool), span(5, 2, 1_000, agent('weather')), span(6, 5, 999, agent('forecaster')), span(4, 1, 1_000, agent('summariser'))];

  it('nestedAgents "each": a run before the runs nested in it, then start time, then span id — whatever the arrival order', () => {
    for (const spans of arrivals(trace)) {
      expect(idsOf(runsOfTrace(spans, { nestedAgents: 'each', rootSpanRuns: true }).map((run) => run.span))).toEqual([1, 4, 5, 6]);
      expect(runsFromTrace(spans, { nestedAgents: 'each', rootSpanRuns: true }).map((run) => run.event.entity.name)).toEqual(['planner', 'summariser', 'weather', 'forecaster']);
    }
  });

  it('runs side by side by start time before span id', () => {
    const later = [span(1, undefined, 1_000, agent('a')), span(2, undefined, 990, agent('b')), span(3, undefined, 1_000, agent('c'))];
    for (const spans of arrivals(later)) expect(idsOf(runsOfTrace(spans, { nestedAgents: 'each', rootSpanRuns: true }).map((run) => run.span))).toEqual([2, 1, 3]);
  });

  it('"outermost": the run owns its spans in start order, a parent before its child within a millisecond, then by span id', () => {
    // 1 run ─ 3 inner (unnamed) ─ 2 innermost 'deep'; 4 another inner 'other' — all in one millisecond
    const nested = [span(1, undefined, 1_000, agent()), span(3, 1, 1_000, agent()), span(2, 3, 1_000, agent('deep')), span(4, 1, 1_000, agent('other')), span(7, 1, 1_001, tool)];
    for (const spans of arrivals(nested)) {
      const [run] = findRuns(spans, { nestedAgents: 'outermost', rootSpanRuns: true }).runs;
      expect(idsOf(run!.own.map((entry) => entry.span))).toEqual([3, 4, 2, 7]);
    }
  });

  it('"outermost": the run takes its name from the nearest named inner agent, not from one nested deeper that started in the same millisecond', () => {
    const named = [span(1, undefined, 1_000, agent()), span(9, 1, 1_000, agent('helper')), span(2, 9, 1_000, agent('deep'))];
    for (const spans of arrivals(named)) expect(runsFromTrace(spans, { nestedAgents: 'outermost', rootSpanRuns: true })[0]!.event.entity.name).toBe('helper');
  });

  it('a trace whose parent ids form a cycle still yields every run once, in one order', () => {
    const cyclic = [span(1, 2, 1_000, agent('a')), span(2, 1, 1_000, agent('b')), span(3, undefined, 1_000, agent('c'))];
    for (const spans of arrivals(cyclic)) expect(idsOf(runsOfTrace(spans, { nestedAgents: 'each', rootSpanRuns: true }).map((run) => run.span))).toEqual([3, 1, 2]);
    // a run below such a cycle (1 ⇄ 2 ─ 3): its spans' depths are counted, and the walk ends
    const below = [span(1, 2, 1_000), span(2, 1, 1_000), span(3, 2, 1_000, agent('run')), span(6, 4, 1_000), span(5, 3, 1_000), span(4, 3, 1_000)];
    for (const spans of arrivals(below)) expect(idsOf(findRuns(spans, { nestedAgents: 'outermost', rootSpanRuns: true }).runs[0]!.own.map((entry) => entry.span))).toEqual([4, 5, 6]);
  });
});

describe('findRuns: a multi-agent crew (docs/otlp.md, "What a run is")', () => {
  // CrewAI under OpenInference: 1 CHAIN Crew.kickoff ─ 2 AGENT support_agent ─ 3 LLM
  //                                                  └ 4 AGENT billing_agent ─ 5 LLM
  const scope = { 'openinference.span.kind': 'CHAIN' };
  const oi = (kind: string, extra: OtlpAttributes = {}): OtlpAttributes => ({ 'openinference.span.kind': kind, ...extra });
  const crew = [span(1, undefined, 1_000, scope), span(2, 1, 1_001, oi('AGENT', { 'input.value': 'support question' })), span(3, 2, 1_002, oi('LLM')), span(4, 1, 1_003, oi('AGENT', { 'input.value': 'billing question' })), span(5, 4, 1_004, oi('LLM'))];

  it("is one run by default, under the crew span, owning every agent's spans", () => {
    const runs = runsOfTrace(crew, { nestedAgents: 'outermost', rootSpanRuns: true });
    expect(runs.map((run) => idsOf([run.span]))).toEqual([[1]]);
    expect(idsOf(runs[0]!.own.map((entry) => entry.span))).toEqual([2, 3, 4, 5]);
  });

  it("with nestedAgents 'each' every agent is a run of its own, with its own question", () => {
    const runs = runsFromTrace(crew, { nestedAgents: 'each', rootSpanRuns: true });
    expect(runs.map((run) => idsOf([run.agentSpan]))).toEqual([[2], [4]]);
    expect(runs.map((run) => run.event.input.inputMessages.map((message) => message.content.content))).toEqual([['support question'], ['billing question']]);
  });
});
