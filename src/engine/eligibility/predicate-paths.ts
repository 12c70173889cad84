// Paths of the predicate DSL: parsing `a.b` / `${a.b}` and resolving them against a context with
// the MISSING semantics (docs/scorers.md, eligibility filters): own properties only, and undefined
// counts as MISSING.
import { isRecord } from '../../kit/utils/message-text.ts';

/** The marker for "nothing at this path"; distinct from every JSON value, including null. */
export const MISSING: unique symbol = Symbol('predicate.missing');
export type Missing = typeof MISSING;

export type ParsedPath = { root: string; rest: string[] };

/** Strips an optional `${...}` wrapper (and the spaces inside it). */
export function unwrapPath(path: string): string {
  const wrapped = /^\$\{(.*)\}$/s.exec(path);
  return wrapped ? (wrapped[1] ?? '').trim() : path;
}

/** Splits a path into root and segments; undefined when it is empty or has an empty segment. */
export function parsePath(path: string): ParsedPath | undefined {
  const segments = unwrapPath(path).split('.');
  if (segments.some((segment) => segment === '')) return undefined;
  const [root, ...rest] = segments;
  return root === undefined ? undefined : { root, rest };
}

function ownValue(holder: unknown, key: string): unknown {
  if (!isRecord(holder) || !Object.hasOwn(holder, key)) return MISSING;
  const value = (holder as Record<string, unknown>)[key];
  return value === undefined ? MISSING : value;
}

/**
 * A resolver for one parsed path. Under `requestContext`, the flat dotted key ('user.tier') is
 * tried before walking nested objects, because the snapshot is flattened. A scalar met before the
 * last segment, a missing key, or an inherited property is MISSING.
 */
export function compilePath(parsed: ParsedPath): (context: unknown) => unknown {
  const { root, rest } = parsed;
  if (rest.length === 0) return (context) => ownValue(context, root);
  const flatKey = rest.join('.');
  const tryFlatKey = root === 'requestContext' && rest.length > 1;
  return (context) => {
    let current = ownValue(context, root);
    if (current === MISSING) return MISSING;
    if (tryFlatKey) {
      const flat = ownValue(current, flatKey);
      if (flat !== MISSING) return flat;
    }
    for (const segment of rest) {
      current = ownValue(current, segment);
      if (current === MISSING) return MISSING;
    }
    return current;
  };
}
