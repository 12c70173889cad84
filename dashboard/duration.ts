// Durations on the command line: `--since 6h`, `--bucket 1m`. A number with a unit of ms, s, m,
// h or d; anything else is refused with the accepted form.
const units: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export function parseDuration(text: string, what: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/.exec(text.trim());
  if (match === null || !(Number(match[1]) > 0)) {
    throw new RangeError(`${what}: expected a positive duration such as 30m, 6h or 2d (units ms, s, m, h, d), got '${text}'`);
  }
  return Math.round(Number(match[1]) * units[match[2]!]!);
}

/** A bucket width giving about `target` buckets over `windowMs`, rounded to a readable step. */
export function bucketWidthFor(windowMs: number, target = 180): number {
  const steps = [1_000, 5_000, 10_000, 20_000, 30_000, 60_000, 120_000, 300_000, 600_000, 1_800_000, 3_600_000, 21_600_000, 86_400_000];
  const ideal = windowMs / target;
  return steps.find((step) => step >= ideal) ?? steps[steps.length - 1]!;
}
