import { describe, expect, it } from 'vitest';
import { isNumericToken, normalizeText, splitWordsAndMarks, tokenize } from '../../../../../../src/kit/scorers/text/tokenize.ts';

describe('normalizeText', () => {
  it('lower-cases and strips accents', () => {
    expect(normalizeText('Café CRÈME Straße')).toBe('cafe creme straße');
  });
});

describe('tokenize', () => {
  it('splits on punctuation and whitespace and keeps order and duplicates', () => {
    expect(tokenize('Book a flight to Paris, then book a hotel!')).toEqual([
      'book', 'a', 'flight', 'to', 'paris', 'then', 'book', 'a', 'hotel',
    ]);
  });

  it('keeps contractions as one token without the apostrophe', () => {
    expect(tokenize("I don't know what’s wrong")).toEqual(['i', 'dont', 'know', 'whats', 'wrong']);
  });

  it('splits hyphenated and underscored words and keeps digits', () => {
    expect(tokenize('e-mail order_id 2024-05-01')).toEqual(['e', 'mail', 'order', 'id', '2024', '05', '01']);
  });

  it('handles non-Latin scripts and empty text', () => {
    expect(tokenize('Привет, мир')).toEqual(['привет', 'мир']);
    expect(tokenize('')).toEqual([]);
    expect(tokenize('  ...  ')).toEqual([]);
  });

  it('tokenizes a text once and shares the frozen result, and stays right past its cache bound', () => {
    const text = 'Shared tokens for several scorers';
    const first = tokenize(text);
    expect(tokenize(`${text}`.slice(0))).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(() => (first as string[]).push('x')).toThrow(TypeError);
    for (let index = 0; index < 200; index += 1) expect(tokenize(`text number ${index}`)).toEqual(['text', 'number', String(index)]);
    expect(tokenize(text)).toEqual(['shared', 'tokens', 'for', 'several', 'scorers']);
  });
});

describe('isNumericToken', () => {
  it('is true for digit-only tokens only', () => {
    expect(isNumericToken('2024')).toBe(true);
    expect(isNumericToken('a1')).toBe(false);
  });
});

describe('splitWordsAndMarks', () => {
  it('keeps case and contractions and splits off each punctuation mark', () => {
    expect(splitWordsAndMarks("It's in Paris, France!!")).toEqual(["It's", 'in', 'Paris', ',', 'France', '!', '!']);
  });

  it('gives nothing for whitespace', () => {
    expect(splitWordsAndMarks(' \n\t ')).toEqual([]);
  });
});
