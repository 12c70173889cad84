// Pairing expected steps with the agent's tool calls. Order-aware modes pair by the longest common
// subsequence; any_order pairs as a multiset. Either way each expected step and each call is used
// at most once, so precision and recall come from the same pairing.
import type { NormalizedStep } from './expected-steps.ts';
import { toolArgumentsOf } from '../../shared/tool-invocations.ts';
import { matchesToolName } from '../../../utils/tool-name.ts';

export type ActualStep = { toolName: string; toolCallId: string; args: unknown };

/** For each expected step and each actual call, whether the pairing used it. */
export type StepPairing = { expectedMatched: boolean[]; actualMatched: boolean[] };

function jsonEqual(first: unknown, second: unknown): boolean {
  if (first === second) return true;
  if (typeof first !== 'object' || typeof second !== 'object' || first === null || second === null) return false;
  if (Array.isArray(first) !== Array.isArray(second)) return false;
  const firstKeys = Object.keys(first);
  const secondRecord = second as Record<string, unknown>;
  if (firstKeys.length !== Object.keys(second).length) return false;
  return firstKeys.every((key) => Object.hasOwn(second, key) && jsonEqual((first as Record<string, unknown>)[key], secondRecord[key]));
}

/** Producers often send args as the model's raw JSON text; compare the object it encodes. */
export function parsedArgs(args: unknown): unknown {
  const decoded = toolArgumentsOf(args);
  return 'args' in decoded ? decoded.args : decoded.notJson;
}

/**
 * Same tool (by its full name, or its function's name when it is plugin-qualified) and, when args are compared, every arg the expected step names is deep-equal in the
 * call. The expected args are a subset: args the expectation does not name may be anything.
 */
export function stepMatches(expected: NormalizedStep, actual: ActualStep, compareArgs: boolean): boolean {
  // An expected `get_order_status` finds Semantic Kernel's `OrdersPlugin-get_order_status` too.
  if (!matchesToolName(expected.toolName, actual.toolName)) return false;
  if (!compareArgs || expected.args === undefined) return true;
  const actualArgs = actual.args;
  if (typeof actualArgs !== 'object' || actualArgs === null) return Object.keys(expected.args).length === 0;
  return Object.entries(expected.args).every(
    ([key, value]) => Object.hasOwn(actualArgs, key) && jsonEqual(value, (actualArgs as Record<string, unknown>)[key]),
  );
}

type Matches = (expectedIndex: number, actualIndex: number) => boolean;

/** Longest common subsequence, with the pairs recovered by walking the table back. */
export function pairInOrder(expectedCount: number, actualCount: number, matches: Matches): StepPairing {
  const width = actualCount + 1;
  const lengths = new Uint32Array((expectedCount + 1) * width);
  for (let e = expectedCount - 1; e >= 0; e--) {
    for (let a = actualCount - 1; a >= 0; a--) {
      lengths[e * width + a] = matches(e, a)
        ? lengths[(e + 1) * width + a + 1]! + 1
        : Math.max(lengths[(e + 1) * width + a]!, lengths[e * width + a + 1]!);
    }
  }
  const pairing: StepPairing = { expectedMatched: new Array<boolean>(expectedCount).fill(false), actualMatched: new Array<boolean>(actualCount).fill(false) };
  let e = 0;
  let a = 0;
  while (e < expectedCount && a < actualCount) {
    if (matches(e, a) && lengths[e * width + a] === lengths[(e + 1) * width + a + 1]! + 1) {
      pairing.expectedMatched[e++] = true;
      pairing.actualMatched[a++] = true;
    // On a tie skip the call, not the expected step: early expected steps stay matched, so a
    // swapped pair reads "missing refund after lookupOrder", the step the agent got wrong.
    } else if (lengths[(e + 1) * width + a]! > lengths[e * width + a + 1]!) e++;
    else a++;
  }
  return pairing;
}

/**
 * The largest multiset pairing when steps match by tool name alone: each expected step takes the
 * first call of its name not taken yet — linear, where the general pairing below is not.
 */
export function pairAnyOrderByName(expectedNames: readonly string[], actualNames: readonly string[]): StepPairing {
  const callsByName = new Map<string, number[]>();
  actualNames.forEach((name, index) => {
    const calls = callsByName.get(name);
    if (calls === undefined) callsByName.set(name, [index]);
    else calls.push(index);
  });
  const takenByName = new Map<string, number>();
  const actualMatched = new Array<boolean>(actualNames.length).fill(false);
  const expectedMatched = expectedNames.map((name) => {
    const taken = takenByName.get(name) ?? 0;
    const index = callsByName.get(name)?.[taken];
    if (index === undefined) return false;
    takenByName.set(name, taken + 1);
    actualMatched[index] = true;
    return true;
  });
  return { expectedMatched, actualMatched };
}

/**
 * The largest multiset pairing. With args compared, one call may satisfy several expected steps
 * (`search` and `search {q: 'a'}`), so a greedy first-fit can miss pairs; augmenting paths
 * (Kuhn's algorithm) find the maximum.
 */
export function pairAnyOrder(expectedCount: number, actualCount: number, matches: Matches): StepPairing {
  const ownerOfActual = new Array<number>(actualCount).fill(-1);
  const tryAssign = (e: number, visited: boolean[]): boolean => {
    for (let a = 0; a < actualCount; a++) {
      if (visited[a] || !matches(e, a)) continue;
      visited[a] = true;
      if (ownerOfActual[a] === -1 || tryAssign(ownerOfActual[a]!, visited)) {
        ownerOfActual[a] = e;
        return true;
      }
    }
    return false;
  };
  const expectedMatched = new Array<boolean>(expectedCount).fill(false);
  for (let e = 0; e < expectedCount; e++) expectedMatched[e] = tryAssign(e, new Array<boolean>(actualCount).fill(false));
  // A later augmenting path can move a call to another expected step, never unmatch one: read the owners at the end.
  const actualMatched = ownerOfActual.map((owner) => owner !== -1);
  return { expectedMatched, actualMatched };
}
