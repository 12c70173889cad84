// Turns free text into comparable word tokens for the code scorers: case, accents and
// punctuation must not decide whether a response "mentions" a term of the question.

const combiningMarks = /\p{M}+/gu;
const wordApostrophes = /(?<=[\p{L}\p{N}])['\u2019](?=[\p{L}\p{N}])/gu;
const wordRuns = /[\p{L}\p{N}]+/gu;

/** Lower-cases and strips accents, so "Café" and "cafe" compare equal. */
export function normalizeText(text: string): string {
  return text.normalize('NFKD').replace(combiningMarks, '').toLowerCase();
}

/**
 * Splits text into normalised word tokens, in order, duplicates kept. Apostrophes inside a
 * word are dropped ("don't" → "dont") so contractions stay one token; every other
 * non-letter, non-digit character separates tokens.
 */
export function tokenize(text: string): readonly string[] {
  let tokens = recentTokens.get(text);
  if (tokens === undefined) {
    tokens = Object.freeze(normalizeText(text).replace(wordApostrophes, '').match(wordRuns) ?? []);
    if (recentTokens.size >= recentTokensLimit) recentTokens.clear();
    recentTokens.set(text, tokens);
  }
  return tokens;
}

// Several built-in scorers tokenize the same input and response of a run one after another; the
// tokens of the last few texts are kept so each text is tokenized once. Keyed by the text itself
// (strings are immutable, so this can never go stale), bounded, and the arrays frozen because
// they are shared.
const recentTokensLimit = 64;
const recentTokens = new Map<string, readonly string[]>();

/** Whether the token is made of digits only (years, counts, ids). */
export function isNumericToken(token: string): boolean {
  return /^\p{N}+$/u.test(token);
}

const wordsAndMarks = /[\p{L}\p{N}]+(?:['\u2019][\p{L}\p{N}]+)*|[^\s\p{L}\p{N}]/gu;

/**
 * Splits text into words and single punctuation marks, as written (case kept, whitespace
 * dropped): the units a word-level diff compares, so "Paris." and "Paris" differ by one mark.
 */
export function splitWordsAndMarks(text: string): string[] {
  return text.match(wordsAndMarks) ?? [];
}
