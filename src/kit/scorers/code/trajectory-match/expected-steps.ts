// Reading an expected trajectory: the run event's free-form `expectedTrajectory`, or an entry of
// the scorer's intent table. Producers write it by hand, so the accepted shapes are loose (a tool
// name, `{ toolName }` or `{ name }`, a bare list or `{ steps }`), and what is wrong is said
// precisely enough to fix the producer.
import type { RequestContextLike } from '../../../scorer/types.ts';

export type ExpectedStep = string | { toolName?: string; name?: string; args?: Record<string, unknown> };

/** An expected step after reading: a tool name and, when given, the args it must be called with. */
export type NormalizedStep = { toolName: string; args?: Record<string, unknown> };

export type ParsedSteps = { steps: NormalizedStep[] } | { problem: string };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : typeof value;
}

function parseStep(step: unknown, position: number): NormalizedStep | string {
  if (typeof step === 'string') return step === '' ? `step ${position} is an empty tool name` : { toolName: step };
  if (!isPlainObject(step)) return `step ${position} is ${describeType(step)}; give a tool name or { toolName, args? }`;
  const toolName = step.toolName ?? step.name;
  if (typeof toolName !== 'string' || toolName === '') return `step ${position} has no tool name; give "toolName" (or "name") as a non-empty string`;
  if (step.args === undefined) return { toolName };
  if (!isPlainObject(step.args)) return `step ${position} ("${toolName}") has args that are ${describeType(step.args)}; give an object of the args to check`;
  return { toolName, args: step.args };
}

/** A list of steps, or `{ steps: [...] }`; anything else is a problem described for the producer. */
export function parseExpectedSteps(value: unknown): ParsedSteps {
  const list = isPlainObject(value) && 'steps' in value ? value.steps : value;
  if (!Array.isArray(list)) {
    return { problem: `it is ${describeType(list)}; give a list of steps (tool names or { toolName, args? }) or { steps: [...] }` };
  }
  const steps: NormalizedStep[] = [];
  for (const [index, step] of list.entries()) {
    const parsed = parseStep(step, index + 1);
    if (typeof parsed === 'string') return { problem: parsed };
    steps.push(parsed);
  }
  return { steps };
}

function isMapLike(value: unknown): value is Pick<RequestContextLike, 'get'> {
  return typeof value === 'object' && value !== null && typeof (value as { get?: unknown }).get === 'function';
}

/**
 * The request context's value under `key`: Mastra's Map-like RequestContext or a plain object.
 * The engine hands scorers a flattened context (`user.intent`), a test may hand a nested one, so
 * a dotted key that is not a key itself is followed as a path.
 */
export function requestContextValue(requestContext: unknown, key: string): unknown {
  if (isMapLike(requestContext)) return requestContext.get(key);
  if (!isPlainObject(requestContext)) return undefined;
  if (key in requestContext) return requestContext[key];
  let current: unknown = requestContext;
  for (const segment of key.split('.')) {
    if (!isPlainObject(current)) return undefined;
    current = current[segment];
  }
  return current;
}
