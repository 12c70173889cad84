// Durations written in a config: '30s', '5m', '1h', '2d', '250ms' — a number with a unit, as the
// monitors' window, for and cooldown take them (src/engine/monitors/monitor-schema.ts).
import { z } from 'zod';

const UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Milliseconds of '30s', '5m', …; undefined for anything else. */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/.exec(text.trim());
  return match === null ? undefined : Math.round(Number(match[1]) * UNITS[match[2]!]!);
}

/** A duration string parsed to milliseconds; `allowZero` for periods that may be off ('0s'). */
export function durationSchema(field: string, options: { allowZero?: boolean } = {}) {
  const expected = `${field} must be a duration such as '30s', '5m' or '1h' (units ms, s, m, h, d)`;
  return z.string({ error: expected }).transform((text, context) => {
    const ms = parseDuration(text);
    if (ms === undefined || (ms === 0 && options.allowZero !== true)) {
      context.addIssue({ code: 'custom', message: `${expected}${ms === 0 ? ', above zero' : ''}, got '${text}'` });
      return z.NEVER;
    }
    return ms;
  });
}
