// A label value with bounded cardinality: the first `max` distinct values one process sees keep
// their name, later ones share `other`, so a metric's series count depends on the config, not on
// the traffic (a new agent or tenant per run cannot grow a Prometheus server without bound).
// Used for the agent and tenant labels of the per-record instruments (record-labels.ts).
export const OTHER_LABEL = 'other';

export type BoundedLabel<Missing extends string | undefined = undefined> = (value: string | undefined) => string | Missing;

/** `max` distinct values, then `other`; a missing value is `missing` (by default left out: undefined). */
export function boundedLabel(max: number): BoundedLabel;
export function boundedLabel<Missing extends string>(max: number, missing: Missing): BoundedLabel<Missing>;
export function boundedLabel(max: number, missing?: string): BoundedLabel<string | undefined> {
  const seen = new Set<string>();
  return (value) => {
    if (value === undefined) return missing;
    if (seen.has(value)) return value;
    if (seen.size >= max) return OTHER_LABEL;
    seen.add(value);
    return value;
  };
}
