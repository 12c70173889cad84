// Numeric helpers scorers use to report and compare scores (Mastra's scorer utils).

/** Rounds to two decimals; the epsilon makes 1.005 round up to 1.01 as people expect. */
export function roundToTwoDecimals(value: number): number {
  return Math.round((value + Number.EPSILON) * 100) / 100;
}

/** True when `value` is strictly closer to `target` than to `other` (a tie is false). */
export function isCloserTo(value: number, target: number, other: number): boolean {
  return Math.abs(value - target) < Math.abs(value - other);
}
