// A label value with bounded cardinality: the first `max` distinct values one process sees keep
// their name, later ones share `other`, so a metric's series count depends on the config, not on
// the traffic (a new agent or tenant per run cannot grow a Prometheus server without bound).
export const OTHER_LABEL = 'other';

export type BoundedLabel = (value: string | undefined) => string | undefined;

/** `undefined` stays undefined (the attribute is left out); `max` distinct values, then `other`. */
export function boundedLabel(max: number): BoundedLabel {
  const seen = new Set<string>();
  return (value) => {
    if (value === undefined) return undefined;
    if (seen.has(value)) return value;
    if (seen.size >= max) return OTHER_LABEL;
    seen.add(value);
    return value;
  };
}
