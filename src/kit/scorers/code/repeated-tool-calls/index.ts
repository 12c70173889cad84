// Repeated tool calls (code, no judge): the share of the agent's tool calls that did not repeat
// earlier ones, 1 − redundant / total. A call is redundant when the same tool with the same
// arguments was already called `maxIdenticalCalls` times, or when it belongs to a back-to-back
// repeat of a call sequence (A B A B A B) beyond `maxCycleRepeats`. Retrying a call that just
// failed is not a loop, up to the same allowance.
import { createScorer } from '../../../scorer/create-scorer.ts';
import { notScorable } from '../../../scorer/not-scorable.ts';
import { wholeNumberOption } from '../../shared/invalid-options.ts';
import { isFailedToolCall, listToolCalls, NO_TOOL_CALLS_REASON, toolArgumentsOf } from '../../shared/tool-invocations.ts';
import type { ToolCallRecord } from '../../shared/tool-invocations.ts';
import { printable, shorten } from '../../shared/reason-text.ts';
import { canonicalJson, TooDeepToCompare } from '../../shared/canonical-json.ts';

export const repeatedToolCallsScorerId = 'repeated-tool-calls';

export type RepeatedToolCallsOptions = {
  /** How often one tool may be called with the same arguments before more calls count as repetition (default 2: one retry). */
  maxIdenticalCalls?: number;
  /** How often a sequence of two or more calls may run back-to-back before more runs count as a loop (default 2). */
  maxCycleRepeats?: number;
};

/** A tool called with the same arguments more often than allowed; `args` is shortened canonical JSON. */
export type RepeatedCallGroup = { toolName: string; args: string; count: number };

/** A call sequence repeated back-to-back more often than allowed. */
export type ToolCallCycle = { tools: string[]; repeats: number };

const defaultOptions = { maxIdenticalCalls: 2, maxCycleRepeats: 2 } as const;

// Enough of the arguments to recognise the call; a 10 kB payload would bury the record.
const maxArgsLength = 120;
// Bounds the cycle search on runs with thousands of calls; longer loops are rare, and each of
// their calls usually repeats with the same arguments, which the identical-call rule catches.
const maxCycleLength = 10;
// The reason names this many groups and cycles, then says how many more there were.
const maxNamedInReason = 3;


// Deeper than any real tool's arguments; past it a call is compared with nothing.
const maxArgsDepth = 1_000;
let uncomparable = 0;

/**
 * The arguments as compact canonical JSON; arguments sent as a JSON string are parsed first, other
 * strings compared as they are. Arguments nested too deep to walk (a hostile or broken producer)
 * get a key of their own: unlike any other call, rather than a failed scorer.
 */
export function canonicalArgs(args: unknown): string {
  const decoded = toolArgumentsOf(args);
  try {
    return canonicalJson('args' in decoded ? decoded.args : decoded.notJson, maxArgsDepth);
  } catch (error) {
    if (!(error instanceof TooDeepToCompare)) throw error;
    uncomparable += 1;
    return `\u0000uncomparable ${uncomparable}`;
  }
}

function callKey(call: ToolCallRecord): string {
  return `${call.toolName}\u0000${canonicalArgs(call.invocation.args)}`;
}

/** Indices of calls beyond the allowance of their (tool, arguments) group, and the groups over it. */
function findIdenticalCalls(calls: readonly ToolCallRecord[], keys: readonly string[], maxIdenticalCalls: number) {
  const redundant = new Set<number>();
  const tally = new Map<string, { first: number; count: number; counted: number; retries: number }>();
  keys.forEach((key, index) => {
    const entry = tally.get(key) ?? { first: index, count: 0, counted: 0, retries: 0 };
    tally.set(key, entry);
    entry.count++;
    // A retry of the call just before, which failed, is error handling, not a loop; retries get
    // their own allowance so an agent hammering a failing tool is still caught.
    const isRetry = index > 0 && keys[index - 1] === key && isFailedToolCall(calls[index - 1]!);
    const used = isRetry ? ++entry.retries : ++entry.counted;
    if (used > maxIdenticalCalls) redundant.add(index);
  });
  const overLimit = [...tally.values()].filter((entry) => entry.counted > maxIdenticalCalls || entry.retries > maxIdenticalCalls);
  const groups: RepeatedCallGroup[] = overLimit.map((entry) => {
    const call = calls[entry.first]!;
    return { toolName: call.toolName, args: shorten(canonicalArgs(call.invocation.args), maxArgsLength), count: entry.count };
  });
  return { redundant, groups };
}

/** How often the `length` keys from `start` repeat back-to-back (1 when they are not repeated). */
function countRepeats(keys: readonly string[], start: number, length: number): number {
  let repeats = 1;
  for (;;) {
    const next = start + repeats * length;
    if (next + length > keys.length) return repeats;
    for (let offset = 0; offset < length; offset++) {
      if (keys[next + offset] !== keys[start + offset]) return repeats;
    }
    repeats++;
  }
}

/**
 * Back-to-back repeats of a sequence of 2 to `maxCycleLength` calls, more than `maxCycleRepeats`
 * times, read left to right; the shortest repeating sequence at a position wins. A sequence of one
 * call repeated (A A A) is not a cycle: the identical-call rule judges it.
 */
function findCycles(calls: readonly ToolCallRecord[], keys: readonly string[], maxCycleRepeats: number) {
  const redundant = new Set<number>();
  const cycles: ToolCallCycle[] = [];
  let start = 0;
  while (start < keys.length) {
    let advance = 1;
    for (let length = 2; length <= maxCycleLength && start + length * (maxCycleRepeats + 1) <= keys.length; length++) {
      const block = keys.slice(start, start + length);
      if (block.every((key) => key === block[0])) continue;
      const repeats = countRepeats(keys, start, length);
      if (repeats <= maxCycleRepeats) continue;
      cycles.push({ tools: calls.slice(start, start + length).map((call) => call.toolName), repeats });
      for (let index = start + maxCycleRepeats * length; index < start + repeats * length; index++) redundant.add(index);
      advance = repeats * length;
      break;
    }
    start += advance;
  }
  return { redundant, cycles };
}

function describeFindings(groups: readonly RepeatedCallGroup[], cycles: readonly ToolCallCycle[]): string {
  const findings = [
    ...groups.map((group) => `${printable(group.toolName)} with the same arguments ${group.count} times`),
    ...cycles.map((cycle) => `the cycle ${cycle.tools.map(printable).join(' → ')} repeated ${cycle.repeats} times`),
  ];
  const named = findings.slice(0, maxNamedInReason).join('; ');
  const more = findings.length - maxNamedInReason;
  return more > 0 ? `${named}; and ${more} more` : named;
}

export function createRepeatedToolCallsScorer(options: RepeatedToolCallsOptions = {}) {
  const maxIdenticalCalls = wholeNumberOption(repeatedToolCallsScorerId, 'maxIdenticalCalls', options.maxIdenticalCalls, defaultOptions.maxIdenticalCalls);
  const maxCycleRepeats = wholeNumberOption(repeatedToolCallsScorerId, 'maxCycleRepeats', options.maxCycleRepeats, defaultOptions.maxCycleRepeats);

  return createScorer({
    id: repeatedToolCallsScorerId,
    name: 'Repeated Tool Calls',
    description: "The share of the agent's tool calls that did not repeat earlier ones (1 − redundant / total).",
    type: 'agent',
  })
    .preprocess(({ run }) => {
      const calls = listToolCalls(run.output);
      if (calls.length === 0) return notScorable(NO_TOOL_CALLS_REASON);
      const keys = calls.map(callKey);
      const identical = findIdenticalCalls(calls, keys, maxIdenticalCalls);
      const looped = findCycles(calls, keys, maxCycleRepeats);
      const redundant = new Set([...identical.redundant, ...looped.redundant]);
      return { totalCalls: calls.length, redundantCalls: redundant.size, groups: identical.groups, cycles: looped.cycles };
    })
    .generateScore(({ results }) => {
      const { totalCalls, redundantCalls } = results.preprocessStepResult;
      return 1 - redundantCalls / totalCalls;
    })
    .generateReason(({ results }) => {
      const { totalCalls, redundantCalls, groups, cycles } = results.preprocessStepResult;
      if (redundantCalls === 0) {
        return `No tool call repeated an earlier one (${totalCalls} ${totalCalls === 1 ? 'call' : 'calls'}).`;
      }
      const verb = redundantCalls === 1 ? 'repeated an earlier one' : 'repeated earlier ones';
      return `${redundantCalls} of ${totalCalls} tool calls ${verb}: ${describeFindings(groups, cycles)}.`;
    });
}
