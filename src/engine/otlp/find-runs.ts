// Which spans of a closed trace are agent runs, and which spans each run owns (docs/otlp.md, "What a
// run is"). Two rules, and each run says which one found it:
//   - agent_span: an agent span (GenAI invoke_agent, OpenInference AGENT, OpenLLMetry agent, the AI
//     SDK's ai.generateText / ai.streamText). With nestedAgents 'outermost' only agent spans with
//     no agent ancestor are runs; with 'each' every agent span is one.
//   - root_span: in a trace with no agent span at all, each root span whose subtree holds a model
//     call (a LangChain chain, a plain app around `chat` spans). On by default (rootSpanRuns).
// Every other span belongs to exactly one run — that of its nearest ancestor that is a run's span —
// or to none (a span outside every run's subtree, e.g. an HTTP server span above the agent).
// Orders never depend on the order the spans arrived in (an exporter writes children first, a
// Collector batches as it likes), because spans often start in the same millisecond (an agent and
// the agent it calls at once): runs in nesting order — a run before the runs nested in it, side by
// side by start time, then span id; a run's spans in start order, within a millisecond a parent
// before its child, then by span id.
import { classifySpan, isScorestreamSpan } from './agent-spans.ts';
import type { SpanConvention, SpanRole } from './agent-spans.ts';
import type { OtlpSpan } from './otlp-span.ts';

export const NESTED_AGENT_MODES = ['outermost', 'each'] as const;
export type NestedAgentMode = (typeof NESTED_AGENT_MODES)[number];

export const RUN_RULES = ['agent_span', 'root_span'] as const;
export type RunRule = (typeof RUN_RULES)[number];

export type RunFindingOptions = { nestedAgents: NestedAgentMode; rootSpanRuns: boolean };

export type ClassifiedSpan = { span: OtlpSpan; role: SpanRole; convention: SpanConvention | undefined };

export type FoundRun = {
  span: OtlpSpan;
  rule: RunRule;
  /** Every span the run owns but its own, in start order (inner agents, model calls, tools, the rest); ties: shallower first, then span id. */
  own: ClassifiedSpan[];
};

export type TraceRuns = {
  runs: FoundRun[];
  /** Spans in no run's subtree. */
  outside: ClassifiedSpan[];
  classified: Map<string, ClassifiedSpan>;
};

const compareIds = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const sideBySide = (a: { span: OtlpSpan }, b: { span: OtlpSpan }) => a.span.startTimeMs - b.span.startTimeMs || compareIds(a.span.spanId, b.span.spanId);

/** Start order; within a millisecond the shallower span first (a parent before its child), then span id. Depths are counted only for ties. */
function inStartOrder(classified: ReadonlyMap<string, ClassifiedSpan>): (a: ClassifiedSpan, b: ClassifiedSpan) => number {
  const depths = new Map<string, number>();
  const depthOf = (span: OtlpSpan): number => {
    const path: OtlpSpan[] = [];
    let base = -1;
    for (let current: OtlpSpan | undefined = span; current !== undefined; ) {
      const known = depths.get(current.spanId);
      if (known !== undefined) {
        base = known;
        break;
      }
      const cycle = path.indexOf(current);
      if (cycle >= 0) {
        // Parent ids in a cycle (a malformed trace): every span of the cycle is a top, wherever the walk entered it.
        for (const member of path.splice(cycle)) depths.set(member.spanId, 0);
        base = 0;
        break;
      }
      path.push(current);
      current = current.parentSpanId === undefined ? undefined : classified.get(current.parentSpanId)?.span;
    }
    for (let index = path.length - 1; index >= 0; index -= 1) depths.set(path[index]!.spanId, base + path.length - index);
    return depths.get(span.spanId)!;
  };
  return (a, b) => a.span.startTimeMs - b.span.startTimeMs || depthOf(a.span) - depthOf(b.span) || compareIds(a.span.spanId, b.span.spanId);
}

/** Runs in nesting order: a run before the runs nested in it (nestedAgents 'each'); runs side by side by start time, then span id. */
function inNestingOrder(runs: FoundRun[], classified: ReadonlyMap<string, ClassifiedSpan>): FoundRun[] {
  if (runs.length < 2) return runs;
  const byId = new Map(runs.map((run) => [run.span.spanId, run]));
  const nested = new Map<FoundRun | null, FoundRun[]>();
  for (const run of runs) {
    const enclosing = enclosingRun(run, byId, classified);
    const siblings = nested.get(enclosing);
    if (siblings === undefined) nested.set(enclosing, [run]);
    else siblings.push(run);
  }
  const ordered: FoundRun[] = [];
  const visit = (enclosing: FoundRun | null) => {
    for (const run of nested.get(enclosing)?.sort(sideBySide) ?? []) {
      ordered.push(run);
      visit(run);
    }
  };
  visit(null);
  // Runs whose parent ids form a cycle (a malformed trace) are nested in no root: last, side by side.
  if (ordered.length < runs.length) ordered.push(...runs.filter((run) => !ordered.includes(run)).sort(sideBySide));
  return ordered;
}

/** The run whose span is the nearest ancestor of `run`'s, or null. */
function enclosingRun(run: FoundRun, byId: ReadonlyMap<string, FoundRun>, classified: ReadonlyMap<string, ClassifiedSpan>): FoundRun | null {
  const seen = new Set([run.span.spanId]);
  for (let id = run.span.parentSpanId; id !== undefined && !seen.has(id); id = classified.get(id)?.span.parentSpanId) {
    const found = byId.get(id);
    if (found !== undefined) return found;
    seen.add(id);
  }
  return null;
}
const OWN = { role: 'other', convention: undefined } as const;

function classifyAll(spans: readonly OtlpSpan[]): Map<string, ClassifiedSpan> {
  const classified = new Map<string, ClassifiedSpan>();
  for (const span of spans) {
    const { role, convention } = isScorestreamSpan(span) ? OWN : classifySpan(span);
    classified.set(span.spanId, { span, role, convention });
  }
  return classified;
}

/**
 * OpenInference marks LangGraph's agent *node* AGENT, once per step, inside the graph's CHAIN spans:
 * the graph is the run. So an outermost OpenInference AGENT span whose ancestors are CHAIN (or
 * other non-agent) spans of the same instrumentation scope gives way to the outermost of them.
 */
function graphOf(agent: ClassifiedSpan, classified: ReadonlyMap<string, ClassifiedSpan>): OtlpSpan {
  if (agent.convention !== 'openinference') return agent.span;
  let top = agent.span;
  const seen = new Set<string>();
  for (let parent = top.parentSpanId === undefined ? undefined : classified.get(top.parentSpanId); parent !== undefined && !seen.has(parent.span.spanId); parent = parent.span.parentSpanId === undefined ? undefined : classified.get(parent.span.parentSpanId)) {
    seen.add(parent.span.spanId);
    if (parent.convention !== 'openinference' || parent.span.scope !== agent.span.scope) break;
    top = parent.span;
  }
  return top;
}

/** The runs of a trace, every span placed (in a run, or outside all): what `scorestream otlp inspect` shows. */
export function findRuns(spans: readonly OtlpSpan[], options: RunFindingOptions): TraceRuns {
  return locate(spans, options, true);
}

/** Only the runs: the service's path, where a trace without a run costs one pass that allocates nothing. */
export function runsOfTrace(spans: readonly OtlpSpan[], options: RunFindingOptions): FoundRun[] {
  return locate(spans, options, false).runs;
}

const NO_RUNS: TraceRuns = Object.freeze({ runs: [], outside: [], classified: new Map() });

function locate(spans: readonly OtlpSpan[], options: RunFindingOptions, placeAll: boolean): TraceRuns {
  // Most traces hold no agent and no model call (an HTTP request, a database call): a first pass
  // that allocates nothing says so, and the service then spends no map and no walk on them.
  if (!placeAll) {
    let agentCount = 0;
    let modelCount = 0;
    for (const span of spans) {
      // Scorestream's own spans count as neither (OWN): their origin is looked up only for an agent or a model call.
      const { role } = classifySpan(span);
      if ((role !== 'agent' && role !== 'model') || isScorestreamSpan(span)) continue;
      if (role === 'agent') agentCount += 1;
      else modelCount += 1;
    }
    if (agentCount === 0 && (modelCount === 0 || !options.rootSpanRuns)) return NO_RUNS;
  }
  const classified = classifyAll(spans);

  // The nearest agent ancestor of every span, memoised so a deep trace costs one walk per span.
  const agentAbove = new Map<string, string | null>();
  const nearestAgent = (span: OtlpSpan): string | null => {
    const path: string[] = [];
    let parentId = span.parentSpanId;
    let result: string | null = null;
    while (parentId !== undefined) {
      const cached = agentAbove.get(parentId);
      if (cached !== undefined) {
        result = classified.get(parentId)?.role === 'agent' ? parentId : cached;
        break;
      }
      const parent = classified.get(parentId);
      if (parent === undefined || path.includes(parentId)) break;
      path.push(parentId);
      if (parent.role === 'agent') {
        result = parentId;
        break;
      }
      parentId = parent.span.parentSpanId;
    }
    // Every span on the path shares the answer (none of them was an agent, but the last may be).
    for (const id of path) if (classified.get(id)?.role !== 'agent') agentAbove.set(id, result);
    return result;
  };

  const agents: ClassifiedSpan[] = [];
  for (const entry of classified.values()) if (entry.role === 'agent') agents.push(entry);
  let runSpans: Array<{ span: OtlpSpan; rule: RunRule }>;
  if (agents.length > 0) {
    // One agent span (the usual trace) has no agent above it: no walk needed to know it is outermost.
    const outermost = agents.length === 1 ? agents : agents.filter((entry) => nearestAgent(entry.span) === null);
    const chosen = options.nestedAgents === 'each' ? agents.map((entry) => entry.span) : [...new Set(outermost.map((entry) => graphOf(entry, classified)))];
    runSpans = chosen.map((span) => ({ span, rule: 'agent_span' }));
  } else if (options.rootSpanRuns) {
    runSpans = [...classified.values()].filter((entry) => entry.span.parentSpanId === undefined).map((entry) => ({ span: entry.span, rule: 'root_span' }));
  } else runSpans = [];

  // Each span's owner: the nearest ancestor that is a run's span. Every span walked through on the
  // way shares the answer, so a deep trace costs one walk per span; one path array serves all walks.
  const runs: FoundRun[] = runSpans.map((run) => ({ ...run, own: [] }));
  const ownerOf = new Map<string, FoundRun | null>(runs.map((run) => [run.span.spanId, run]));
  const path: string[] = [];
  const outside: ClassifiedSpan[] = [];
  for (const entry of classified.values()) {
    if (ownerOf.get(entry.span.spanId)?.span === entry.span) continue; // a run's own span
    path.length = 0;
    let parentId = entry.span.parentSpanId;
    let owner: FoundRun | null = null;
    while (parentId !== undefined) {
      const known = ownerOf.get(parentId);
      if (known !== undefined) {
        owner = known;
        break;
      }
      const parent = classified.get(parentId);
      if (parent === undefined || path.includes(parentId)) break;
      path.push(parentId);
      parentId = parent.span.parentSpanId;
    }
    for (const id of path) ownerOf.set(id, owner);
    if (owner === null) outside.push(entry);
    else owner.own.push(entry);
  }
  const startOrder = inStartOrder(classified);
  for (const run of runs) run.own.sort(startOrder);

  if (agents.length === 0) {
    // A root is a run only when its subtree holds a model call; the others' spans are outside.
    const kept = runs.filter((run) => classified.get(run.span.spanId)!.role === 'model' || run.own.some((entry) => entry.role === 'model'));
    for (const run of runs) if (!kept.includes(run)) outside.push(classified.get(run.span.spanId)!, ...run.own);
    return { runs: inNestingOrder(kept, classified), outside, classified };
  }
  return { runs: inNestingOrder(runs, classified), outside, classified };
}
