// A redactor: text in, text out with every match of the configured patterns replaced by
// `[redacted:<name>]`, then the config's own hook. Returns the very same string when nothing
// matched, so callers can tell cheaply whether anything changed. Pure; compiled once per config.
import type { RedactionSettings } from './redaction-schema.ts';
import { BUILTIN_PATTERNS, BUILTIN_PREFILTER_SOURCE, BUILTIN_REDACTIONS, MIN_BUILTIN_MATCH } from './redaction-patterns.ts';
import type { RedactionPattern } from './redaction-patterns.ts';

export type Redactor = (text: string) => string;

/** Leaves text as it is: `redaction: { builtins: false }`. */
export const noRedaction: Redactor = (text) => text;

function replaceAll(text: string, { name, pattern, keep, group }: RedactionPattern): string {
  pattern.lastIndex = 0;
  if (!pattern.test(text)) return text;
  pattern.lastIndex = 0;
  const marker = `[redacted:${name}]`;
  // A function replacer: the marker is inserted literally ($& and friends mean nothing in it).
  return text.replace(pattern, (match: string, ...captures: unknown[]) => {
    if (keep?.(match) === true) return match;
    if (group === undefined) return marker;
    const value = captures[group - 1];
    return typeof value === 'string' && value !== '' ? match.slice(0, match.lastIndexOf(value)) + marker : match;
  });
}

export function compilePatterns(settings: RedactionSettings): RedactionPattern[] {
  const builtins = settings.builtins === true ? BUILTIN_REDACTIONS : settings.builtins === false ? [] : settings.builtins;
  return [
    ...builtins.flatMap((name) => BUILTIN_PATTERNS[name].map((pattern) => ({ ...pattern, pattern: new RegExp(pattern.pattern) }))),
    ...settings.patterns.map(({ name, pattern }) => ({ name, pattern })),
  ];
}

/**
 * What every match of a built-in contains (redaction-patterns.ts says so beside each pattern): one
 * cheap scan of literals rules most strings of a record out before the patterns' own scans run.
 * A deployment's patterns are not folded in; they always run.
 */
const BUILTIN_PREFILTER = new RegExp(BUILTIN_PREFILTER_SOURCE, 'i');

/**
 * Short strings — a record's keys, the terms and labels scorers return, metadata values — repeat
 * from record to record, and each costs a scan of the prefilter (and of every pattern when it
 * hits, as "password" does). Their results are remembered, up to this length and this many.
 */
const REMEMBERED_LENGTH = 64;
const REMEMBERED_COUNT = 4_096;

export function createRedactor(settings: RedactionSettings): Redactor {
  const patterns = compilePatterns(settings);
  const own = settings.patterns.length;
  const builtins = patterns.slice(0, patterns.length - own);
  const custom = patterns.slice(patterns.length - own);
  const prefilter = builtins.length === 0 ? undefined : BUILTIN_PREFILTER;
  const hook = settings.redact;
  if (patterns.length === 0 && hook === undefined) return noRedaction;
  const redact: Redactor = (text) => {
    let result = text;
    if (prefilter !== undefined && text.length >= MIN_BUILTIN_MATCH && prefilter.test(text)) for (const pattern of builtins) result = replaceAll(result, pattern);
    for (const pattern of custom) result = replaceAll(result, pattern);
    if (hook === undefined) return result;
    const hooked = hook(result);
    return typeof hooked === 'string' ? hooked : result;
  };
  // A deployment's hook is its own code, called for every string as documented: not remembered.
  if (hook !== undefined) return redact;
  const remembered = new Map<string, string>();
  const shortest = custom.length === 0 ? MIN_BUILTIN_MATCH : 0;
  return (text) => {
    if (text.length < shortest) return text;
    if (text.length > REMEMBERED_LENGTH) return redact(text);
    let result = remembered.get(text);
    if (result === undefined) {
      result = redact(text);
      // Cleared rather than evicted one by one: the strings that recur are back within a few records.
      if (remembered.size >= REMEMBERED_COUNT) remembered.clear();
      remembered.set(text, result);
    }
    return result;
  };
}
