// Redaction over a JSON value: every string (object keys included) through the redactor, the
// rest as it is — walked as JSON.stringify would write it. Unchanged parts are returned as the
// same objects, so a record with nothing to redact costs a walk and no copies. This walk runs on
// every record the service writes, so it allocates nothing on that path: no entry pairs, no
// closures, and no set of visited objects until a value is deep enough to be a cycle.
import type { Redactor } from './create-redactor.ts';

/**
 * Deeper than this, the objects above are tracked: a cycle is found within this depth plus its
 * length and left as it is (JSON.stringify then refuses it, and the record's fallback says so).
 * Records are far shallower, so the common walk tracks nothing.
 */
const UNTRACKED_DEPTH = 64;

export function redactValue<T>(value: T, redact: Redactor): T {
  return walk(value, redact, 0, undefined) as T;
}

/** `path`: the objects above this one below UNTRACKED_DEPTH, once a walk got that deep. */
function walk(value: unknown, redact: Redactor, depth: number, path: Set<object> | undefined): unknown {
  if (typeof value === 'string') return redact(value);
  if (typeof value !== 'object' || value === null) return value;
  if (depth < UNTRACKED_DEPTH) return walkObject(value, redact, depth + 1, path);
  const above = path ?? new Set<object>();
  if (above.has(value)) return value;
  above.add(value);
  try {
    return walkObject(value, redact, depth + 1, above);
  } finally {
    above.delete(value);
  }
}

function walkObject(value: object, redact: Redactor, depth: number, path: Set<object> | undefined): unknown {
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let index = 0; index < value.length; index += 1) {
      const item: unknown = value[index];
      const redacted = walk(item, redact, depth, path);
      if (redacted !== item) (copy ??= value.slice())[index] = redacted;
    }
    return copy ?? value;
  }
  // What JSON.stringify would write: toJSON's result (a Date's string), else the own enumerable
  // properties, so nothing that reaches the wire escapes the walk.
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') {
    const json: unknown = toJSON.call(value);
    const redacted = walk(json, redact, depth, path);
    return redacted === json ? value : redacted;
  }
  const source = value as Record<string, unknown>;
  const keys = Object.keys(source);
  let copy: Record<string, unknown> | undefined;
  for (let index = 0; index < keys.length; index += 1) {
    const key = keys[index]!;
    const item = source[key];
    const redactedKey = redact(key);
    const redacted = walk(item, redact, depth, path);
    if (copy === undefined) {
      if (redactedKey === key && redacted === item) continue;
      // The first change: the properties before it were unchanged, copied in their order.
      copy = {};
      for (let before = 0; before < index; before += 1) put(copy, keys[before]!, source[keys[before]!]);
    }
    put(copy, redactedKey, redacted);
  }
  return copy ?? value;
}

/** An own property even for `__proto__` (a run's JSON may hold one), where assignment would set the prototype. */
function put(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
