// Epoch milliseconds → the ISO 8601 text Date#toISOString writes ("2026-12-03T17:07:07.123Z"),
// for the times every record carries (scoredAt, decidedAt, a run assembled from spans). The
// service writes several per event, and Date#toISOString costs about 0.65 µs a call (Node 24):
// records written in the same second share its first 20 characters, so those are remembered and
// only the milliseconds are added (about 0.02 µs). Anything Date does differently — before 1970,
// from the year 10000 on, not a number (a RangeError) — goes to Date itself.

/** The first time Date#toISOString writes with a six-digit year. */
const YEAR_10000 = Date.UTC(10_000, 0, 1);
const MILLIS = Array.from({ length: 1_000 }, (_, milli) => `${String(milli).padStart(3, '0')}Z`);

let rememberedSecond = Number.NaN;
let rememberedPrefix = '';

/** `new Date(epochMs).toISOString()`, the same text, without a Date per call. */
export function isoTime(epochMs: number): string {
  // Date keeps whole milliseconds, truncated toward zero (TimeClip).
  const ms = Math.trunc(epochMs);
  if (!(ms >= 0 && ms < YEAR_10000)) return new Date(epochMs).toISOString();
  const second = Math.floor(ms / 1_000);
  if (second !== rememberedSecond) {
    rememberedSecond = second;
    rememberedPrefix = new Date(second * 1_000).toISOString().slice(0, 20);
  }
  return rememberedPrefix + MILLIS[ms - second * 1_000]!;
}
