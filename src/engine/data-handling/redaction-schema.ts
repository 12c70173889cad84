// The config's say over what leaves the process (docs/data-handling.md): `evidence` globally and
// per binding, and `redaction` — the built-in patterns, a deployment's own, and a hook. Declared
// once here; the config schema composes it.
import { z } from 'zod';
import { BUILTIN_REDACTIONS } from './redaction-patterns.ts';

/**
 * How much of a scorer's evidence a score record carries. `full`: everything (prompts, step
 * results, the judge's outputs, the reason). `no-content`: model, tokens, durations, status and
 * scores — no prompts, no outputs, no step results, no reason. `none`: no evidence at all — no
 * judge executions either; status, score, errors and ids only.
 */
export const EVIDENCE_LEVELS = ['full', 'no-content', 'none'] as const;
export type EvidenceLevel = (typeof EVIDENCE_LEVELS)[number];

export const evidenceSchema = z.enum(EVIDENCE_LEVELS, { error: `expected one of ${EVIDENCE_LEVELS.map((level) => `'${level}'`).join(', ')}` });

/** A pattern string or RegExp, compiled global; one that matches the empty string is refused (it would mark every gap). */
const patternSchema = z
  .union([z.string().min(1), z.instanceof(RegExp)])
  .transform((value, context) => {
    let pattern: RegExp;
    try {
      pattern = typeof value === 'string' ? new RegExp(value, 'g') : new RegExp(value.source, value.flags.includes('g') ? value.flags : `${value.flags}g`);
    } catch (error) {
      context.addIssue({ code: 'custom', message: `not a valid regular expression: ${(error as Error).message}` });
      return z.NEVER;
    }
    if (new RegExp(pattern.source, pattern.flags.replace('g', '')).test('')) {
      context.addIssue({ code: 'custom', message: 'the pattern matches the empty string; it must match the text to redact' });
      return z.NEVER;
    }
    return pattern;
  });

const hookSchema = z.custom<(text: string) => string>((value) => typeof value === 'function', { message: 'expected a function (text: string) => string' });

/** `{ builtins: false }` with no patterns and no hook turns redaction off. */
export const redactionSchema = z.strictObject({
  /** `true` (default): every built-in; `false`: none; or the names to use. */
  builtins: z.union([z.boolean(), z.array(z.enum(BUILTIN_REDACTIONS))], { error: `expected true, false or a list of ${BUILTIN_REDACTIONS.map((name) => `'${name}'`).join(', ')}` }).default(true),
  /** A deployment's own: each match becomes `[redacted:<name>]`. */
  patterns: z.array(z.strictObject({ name: z.string().regex(/^[A-Za-z0-9_-]+$/, 'expected letters, digits, - or _'), pattern: patternSchema })).default([]),
  /** Runs after the patterns on every string: return the text with whatever else must go removed. */
  redact: hookSchema.optional(),
});
export type RedactionSettings = z.output<typeof redactionSchema>;
export type RedactionInput = z.input<typeof redactionSchema>;
