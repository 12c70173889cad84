// Key terms of a text (the content words a reader would expect an answer to pick up) and
// the loose term matching the coverage scorers use, so "flights" covers "flight".

import { isStopWord } from './stop-words.ts';
import { isNumericToken, tokenize } from './tokenize.ts';

export type KeyTermOptions = {
  /** Keep digit-only tokens such as years or order numbers (default true). */
  includeNumbers?: boolean;
};

/** Distinct non-stop-word tokens of at least two characters, in order of first appearance. */
export function extractKeyTerms(text: string, options: KeyTermOptions = {}): string[] {
  const includeNumbers = options.includeNumbers ?? true;
  const terms = new Set<string>();
  for (const token of tokenize(text)) {
    if (token.length < 2 || isStopWord(token)) continue;
    if (!includeNumbers && isNumericToken(token)) continue;
    terms.add(token);
  }
  return [...terms];
}

const shortestLooseTerm = 4;
const minimumPrefixShare = 0.6;

/**
 * Whether two normalised terms name the same thing: equal, or (for terms of four or more
 * characters) one is a prefix of the other and covers at least 60% of it. That accepts
 * inflections such as "flight"/"flights" or "order"/"ordered" without a stemmer, and keeps
 * short words exact so "car" never matches "carpet".
 */
export function termsMatch(first: string, second: string): boolean {
  if (first === second) return true;
  const firstIsShorter = first.length <= second.length;
  const shorter = firstIsShorter ? first : second;
  const longer = firstIsShorter ? second : first;
  if (shorter.length < shortestLooseTerm) return false;
  return shorter.length / longer.length >= minimumPrefixShare && longer.startsWith(shorter);
}

export type TermCoverage = {
  covered: string[];
  missing: string[];
};

/** Splits `terms` into those some term of `candidates` matches and those none does. */
export function coverTerms(terms: readonly string[], candidates: readonly string[]): TermCoverage {
  const exact = new Set(candidates);
  const covered: string[] = [];
  const missing: string[] = [];
  for (const term of terms) {
    let found = exact.has(term);
    for (let index = 0; !found && index < candidates.length; index++) found = termsMatch(term, candidates[index]!);
    (found ? covered : missing).push(term);
  }
  return { covered, missing };
}
