// The request-context snapshot (docs/scorers.md, eligibility filters): the flat, JSON-safe view of
// a run's request context that filters evaluate against and score records carry. Only scalars
// survive, nested plain objects become dotted keys, and the framework's auth token never leaves.

/**
 * Mastra's reserved request-context key for the caller's raw auth token. It is dropped from every
 * snapshot, also when it appears nested (as the last segment of a flattened key).
 */
export const REQUEST_CONTEXT_AUTH_TOKEN_KEY = 'mastra__authToken';

/** How many key segments a flattened key may have; deeper values are dropped. */
export const REQUEST_CONTEXT_MAX_DEPTH = 8;

export type RequestContextSnapshot = Record<string, string | number | boolean>;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function isKeptScalar(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
}

function entriesOf(value: unknown): Iterable<[unknown, unknown]> | undefined {
  if (isPlainObject(value)) return Object.entries(value);
  if (typeof value === 'object' && value !== null && typeof (value as { entries?: unknown }).entries === 'function') {
    try {
      const entries: unknown = (value as { entries: () => unknown }).entries();
      if (typeof entries === 'object' && entries !== null && Symbol.iterator in entries) {
        return entries as Iterable<[unknown, unknown]>;
      }
    } catch {
      // A context whose entries() throws has nothing we can safely read.
    }
  }
  return undefined;
}

function assign(snapshot: RequestContextSnapshot, key: string, value: string | number | boolean): void {
  // '__proto__' as a plain assignment would change the prototype instead of adding a key.
  if (key === '__proto__') Object.defineProperty(snapshot, key, { value, enumerable: true, writable: true, configurable: true });
  else snapshot[key] = value;
}

function flatten(
  snapshot: RequestContextSnapshot,
  object: Record<string, unknown>,
  prefix: string,
  depth: number,
  ancestors: Set<object>,
): void {
  for (const [key, value] of Object.entries(object)) addEntry(snapshot, key, value, prefix, depth, ancestors);
}

function addEntry(
  snapshot: RequestContextSnapshot,
  key: string,
  value: unknown,
  prefix: string,
  depth: number,
  ancestors: Set<object>,
): void {
  if (key === REQUEST_CONTEXT_AUTH_TOKEN_KEY) return;
  const fullKey = prefix === '' ? key : `${prefix}.${key}`;
  if (isKeptScalar(value)) {
    assign(snapshot, fullKey, value);
    return;
  }
  // Arrays, buffers, typed arrays, Maps, Dates, functions, null, NaN/Infinity are not plain scalars
  // or plain objects: dropped. So are cycles and anything deeper than the depth limit.
  if (!isPlainObject(value) || depth >= REQUEST_CONTEXT_MAX_DEPTH || ancestors.has(value)) return;
  ancestors.add(value);
  flatten(snapshot, value, fullKey, depth + 1, ancestors);
  ancestors.delete(value);
}

/**
 * The flattened snapshot of a request context: a plain object or anything with an `entries()`
 * iterator (Mastra's RequestContext, a Map). Keeps strings, booleans and finite numbers; nested
 * plain objects become dotted keys (`{ user: { tier: 'gold' } }` gives `'user.tier': 'gold'`) up to
 * 8 segments. Never throws; anything else gives `{}`. When two entries flatten to the same key,
 * the later one wins.
 */
export function snapshotRequestContext(value: unknown): RequestContextSnapshot {
  const snapshot: RequestContextSnapshot = {};
  const entries = entriesOf(value);
  if (entries === undefined) return snapshot;
  const ancestors = new Set<object>([value as object]);
  try {
    for (const entry of entries) {
      if (!Array.isArray(entry) || typeof entry[0] !== 'string') continue;
      addEntry(snapshot, entry[0], entry[1], '', 1, ancestors);
    }
  } catch {
    // A misbehaving iterator or getter ends the snapshot with what was read so far.
  }
  return snapshot;
}
