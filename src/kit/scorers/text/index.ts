// The text algorithms behind the code scorers: tokens, stop words, key terms and similarity.
export { normalizeText, tokenize, isNumericToken, splitWordsAndMarks } from './tokenize.ts';
export { englishStopWords, isStopWord } from './stop-words.ts';
export { extractKeyTerms, termsMatch, coverTerms } from './key-terms.ts';
export type { KeyTermOptions, TermCoverage } from './key-terms.ts';
export { getMatchingBlocks, sequenceRatio, countChanges, textRatio } from './sequence-matcher.ts';
export type { MatchingBlock, SequenceMatcherOptions } from './sequence-matcher.ts';
export { diceCoefficient } from './dice-coefficient.ts';
