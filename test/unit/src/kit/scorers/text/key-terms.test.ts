import { describe, expect, it } from 'vitest';
import { coverTerms, extractKeyTerms, termsMatch } from '../../../../../../src/kit/scorers/text/key-terms.ts';
import { isStopWord } from '../../../../../../src/kit/scorers/text/stop-words.ts';

describe('isStopWord', () => {
  it('knows function words and not content words', () => {
    expect(isStopWord('the')).toBe(true);
    expect(isStopWord('dont')).toBe(true);
    expect(isStopWord('weather')).toBe(false);
    // "we'll" is not listed as "well": it would swallow a content word.
    expect(isStopWord('well')).toBe(false);
  });
});

describe('extractKeyTerms', () => {
  it('keeps distinct content words in order of first appearance', () => {
    expect(extractKeyTerms('What is the weather in Paris? Is the weather in Paris sunny in May 2024?')).toEqual([
      'weather', 'paris', 'sunny', '2024',
    ]);
  });

  it('drops numbers when asked and single characters always', () => {
    expect(extractKeyTerms('Order 42 of size X', { includeNumbers: false })).toEqual(['order', 'size']);
  });

  it('gives no terms for text made of stop words', () => {
    expect(extractKeyTerms('What is it about?')).toEqual([]);
  });
});

describe('termsMatch', () => {
  it('accepts equal terms and close inflections', () => {
    expect(termsMatch('paris', 'paris')).toBe(true);
    expect(termsMatch('flight', 'flights')).toBe(true);
    expect(termsMatch('ordered', 'order')).toBe(true);
  });

  it('rejects short prefixes and distant words', () => {
    expect(termsMatch('car', 'carpet')).toBe(false);
    expect(termsMatch('book', 'bookkeeping')).toBe(false);
    expect(termsMatch('flight', 'light')).toBe(false);
  });
});

describe('coverTerms', () => {
  it('splits terms into covered and missing', () => {
    expect(coverTerms(['weather', 'paris', 'flights'], ['sunny', 'paris', 'flight'])).toEqual({
      covered: ['paris', 'flights'],
      missing: ['weather'],
    });
  });

  it('covers nothing against no candidates', () => {
    expect(coverTerms(['paris'], [])).toEqual({ covered: [], missing: ['paris'] });
  });
});
