// The built-in redactions: what must never leave the process in a record, a span or a log line
// whatever a scorer, a judge or a run put into it. Each is a global regular expression and,
// where a shape alone would catch too much, a check on the match (card numbers: the Luhn sum).
// A match is replaced by `[redacted:<name>]`, so a reader sees that something was there.

/** The names a config may list under `redaction.builtins`. */
export const BUILTIN_REDACTIONS = ['email', 'card-number', 'api-key', 'bearer-token'] as const;
export type BuiltinRedaction = (typeof BUILTIN_REDACTIONS)[number];

export type RedactionPattern = {
  name: string;
  /** Global (`g`); every match is replaced unless `keep` says otherwise. */
  pattern: RegExp;
  /** True for a match that only looks like one (a 16-digit order number that fails the Luhn check). */
  keep?: (match: string) => boolean;
  /** Replaces only this capture group of the match (`api_key=<value>` keeps its name). */
  group?: number;
};

/** The Luhn checksum of the digits in `text` (ISO/IEC 7812): every card number passes it. */
export function passesLuhn(text: string): boolean {
  let sum = 0;
  let double = false;
  let digits = 0;
  for (let index = text.length - 1; index >= 0; index -= 1) {
    const code = text.charCodeAt(index) - 48;
    if (code < 0 || code > 9) continue;
    digits += 1;
    let digit = code;
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return digits >= 13 && digits <= 19 && sum % 10 === 0;
}

/**
 * Literals one of which every match of the patterns below contains, case aside: `@` (an address),
 * a run of 13 digit-or-separator characters (a card), a key's prefix or a secret's name, `Bearer`
 * or `eyJ` (a token). Keep it in step when a pattern changes: create-redactor.ts skips a string
 * that contains none of them (every example of test/unit/src/engine/data-handling/create-redactor.test.ts goes through it).
 */
export const BUILTIN_PREFILTER_SOURCE = '@|\\d[\\d -]{11,}\\d|sk-|[sr]k_|akia|asia|gh[pousr]_|github_pat_|xox[abprs]-|aiza|api|apikey|secret|passw|access|bearer|eyj';

/** No built-in matches fewer characters (`a@b.io`). */
export const MIN_BUILTIN_MATCH = 6;

export const BUILTIN_PATTERNS: Record<BuiltinRedaction, readonly RedactionPattern[]> = {
  email: [{ name: 'email', pattern: /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g }],
  // 13 to 19 digits, optionally grouped by single spaces or dashes, not inside a longer number.
  'card-number': [{ name: 'card-number', pattern: /(?<![\d-])\d(?:[ -]?\d){12,18}(?![\d-])/g, keep: (match) => !passesLuhn(match) }],
  'api-key': [
    // Provider key shapes: OpenAI and Anthropic (sk-, sk-proj-, sk-ant-), Stripe, AWS access key
    // ids, GitHub tokens, Slack tokens, Google API keys.
    {
      name: 'api-key',
      pattern: /\b(?:sk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}|(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|(?:AKIA|ASIA)[0-9A-Z]{16}|gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,}|xox[abprs]-[A-Za-z0-9-]{10,}|AIza[0-9A-Za-z_-]{35})\b/g,
    },
    // `api_key=…`, `"apiKey": "…"`, `secret: …`, `password=…`: the value after a secret's name.
    { name: 'api-key', pattern: /\b(?:api[_-]?key|apikey|secret|password|passwd|access[_-]?token)["']?\s*[:=]\s*["']?([^\s"',;&}]{6,})/gi, group: 1 },
  ],
  'bearer-token': [
    { name: 'bearer-token', pattern: /(?<=\bBearer\s+)[A-Za-z0-9._~+/-]{8,}=*/gi },
    // A JSON Web Token anywhere: three base64url parts, the first two starting with `{"` (eyJ).
    { name: 'bearer-token', pattern: /\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g },
  ],
};
