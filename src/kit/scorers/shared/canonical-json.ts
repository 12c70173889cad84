// JSON with object keys sorted at every depth, so equal values written in another key order
// compare equal: a tool schema's cache key (tool-argument-validity), a call's arguments
// (repeated-tool-calls). Values come from producers, so the walk is bounded: deeper than
// `maxDepth` (a hostile payload, or a cycle in an in-process object) is TooDeepToCompare.

export class TooDeepToCompare extends Error {
  constructor(maxDepth: number) {
    super(`nested deeper than ${maxDepth} levels`);
  }
}

export function canonicalJson(value: unknown, maxDepth: number, depth = 0): string {
  if (depth > maxDepth) throw new TooDeepToCompare(maxDepth);
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null, maxDepth, depth + 1)).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    const entries = Object.keys(record)
      .sort()
      .filter((key) => record[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key], maxDepth, depth + 1)}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
