// Keyword coverage (code, no judge): the share of keywords found in the agent's response. The
// keywords are given in the options, or taken from the user's input (its content words).
import { createScorer } from '../../../scorer/create-scorer.ts';
import { notScorable } from '../../../scorer/not-scorable.ts';
import { invalidScorerOptions } from '../../shared/invalid-options.ts';
import { getInputText, getResponseText, partAbsent } from '../../shared/run-text.ts';
import { extractKeyTerms, termsMatch } from '../../text/key-terms.ts';
import { tokenize } from '../../text/tokenize.ts';

export const keywordCoverageScorerId = 'keyword-coverage';

export type KeywordCoverageOptions = {
  /**
   * Words or phrases the response should contain (case, accents and punctuation ignored; a
   * phrase must appear as consecutive words). Default: the content words of the input.
   */
  keywords?: string[];
};

type Keyword = { keyword: string; tokens: readonly string[] };

/** Whether the token sequence of `keyword` occurs in `tokens`, each word matched loosely. */
function containsKeyword(tokens: readonly string[], keyword: readonly string[]): boolean {
  // Plain loops: this runs for every keyword at every response position (hot in the service).
  search: for (let start = 0; start + keyword.length <= tokens.length; start++) {
    for (let offset = 0; offset < keyword.length; offset++) {
      if (!termsMatch(keyword[offset]!, tokens[start + offset]!)) continue search;
    }
    return true;
  }
  return false;
}

function configuredKeywords(keywords: unknown): Keyword[] | undefined {
  if (keywords === undefined) return undefined;
  if (!Array.isArray(keywords) || keywords.length === 0) {
    throw invalidScorerOptions(keywordCoverageScorerId, 'option "keywords" must be a non-empty array of strings.');
  }
  const seen = new Map<string, Keyword>();
  for (const keyword of keywords) {
    const tokens = typeof keyword === 'string' ? tokenize(keyword) : [];
    if (tokens.length === 0) {
      throw invalidScorerOptions(
        keywordCoverageScorerId,
        `keyword ${JSON.stringify(keyword)} has no letters or digits; give words or phrases.`,
      );
    }
    const key = tokens.join(' ');
    if (!seen.has(key)) seen.set(key, { keyword: keyword as string, tokens });
  }
  return [...seen.values()];
}

export function createKeywordCoverageScorer(options: KeywordCoverageOptions = {}) {
  const given = configuredKeywords(options.keywords);

  return createScorer({
    id: keywordCoverageScorerId,
    name: 'Keyword Coverage',
    description: given
      ? `The share of the keywords [${given.map((entry) => entry.keyword).join(', ')}] found in the agent's response.`
      : "The share of the input's keywords found in the agent's response.",
    type: 'agent',
  })
    .preprocess(({ run }) => {
      let keywords = given;
      if (keywords === undefined) {
        const inputText = getInputText(run.input) ?? '';
        keywords = extractKeyTerms(inputText, { includeNumbers: false }).map((term) => ({ keyword: term, tokens: [term] }));
        if (keywords.length === 0) {
          return notScorable('No keywords: the input has no content words and none were configured.');
        }
      }
      const responseText = getResponseText(run.output);
      if (responseText === undefined) return partAbsent(run, 'answer', 'The agent gave no text response.');
      const responseTokens = tokenize(responseText);
      const matchedKeywords: string[] = [];
      const missingKeywords: string[] = [];
      for (const { keyword, tokens } of keywords) {
        (containsKeyword(responseTokens, tokens) ? matchedKeywords : missingKeywords).push(keyword);
      }
      return { keywordSource: given ? ('options' as const) : ('input' as const), matchedKeywords, missingKeywords };
    })
    .generateScore(({ results }) => {
      const { matchedKeywords, missingKeywords } = results.preprocessStepResult;
      return matchedKeywords.length / (matchedKeywords.length + missingKeywords.length);
    })
    .generateReason(({ results }) => {
      const { matchedKeywords, missingKeywords } = results.preprocessStepResult;
      const total = matchedKeywords.length + missingKeywords.length;
      const summary = `The response contains ${matchedKeywords.length} of ${total} keywords`;
      return missingKeywords.length === 0 ? `${summary}.` : `${summary}; missing: ${missingKeywords.join(', ')}.`;
    });
}
