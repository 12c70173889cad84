// Redaction over a JSON value: every string (object keys included) through the redactor, the
// rest as it is — walked as JSON.stringify would write it. Unchanged parts are returned as the same objects, so a record with nothing to
// redact costs a walk and no copies.
import type { Redactor } from './create-redactor.ts';

export function redactValue<T>(value: T, redact: Redactor): T {
  return walk(value, redact, new Set()) as T;
}

/** `path`: the objects above this one; a cycle is left as it is (JSON.stringify then refuses it, and the record's fallback says so). */
function walk(value: unknown, redact: Redactor, path: Set<object>): unknown {
  if (typeof value === 'string') return redact(value);
  if (typeof value !== 'object' || value === null || path.has(value)) return value;
  path.add(value);
  try {
    return walkObject(value, redact, path);
  } finally {
    path.delete(value);
  }
}

function walkObject(value: object, redact: Redactor, path: Set<object>): unknown {
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let index = 0; index < value.length; index += 1) {
      const item: unknown = value[index];
      const redacted = walk(item, redact, path);
      if (redacted !== item) (copy ??= value.slice())[index] = redacted;
    }
    return copy ?? value;
  }
  // What JSON.stringify would write: toJSON's result (a Date's string), else the own enumerable
  // properties, so nothing that reaches the wire escapes the walk.
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') {
    const json: unknown = toJSON.call(value);
    const redacted = walk(json, redact, path);
    return redacted === json ? value : redacted;
  }
  let copy: Record<string, unknown> | undefined;
  const entries = Object.entries(value);
  entries.forEach(([key, item], index) => {
    const redactedKey = redact(key);
    const redacted = walk(item, redact, path);
    if (copy === undefined) {
      if (redactedKey === key && redacted === item) return;
      // The first change: the entries before it were unchanged, copied in their order.
      copy = Object.fromEntries(entries.slice(0, index));
    }
    copy[redactedKey] = redacted;
  });
  return copy ?? value;
}
