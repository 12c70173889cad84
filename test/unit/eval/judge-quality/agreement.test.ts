import { describe, expect, it } from 'vitest';
import { agreementFigures, costFigures, describeThreshold, labelForScore, noLabel, percentile } from '../../../../eval/judge-quality/agreement.ts';
import type { CaseOutcome } from '../../../../eval/judge-quality/agreement.ts';
import { thresholds } from '../../../../eval/judge-quality/scorer-labels.ts';

const scored = (expected: string, predicted: string): CaseOutcome => ({ status: 'scored', expected, predicted });
const pairs = (entries: [string, string][]) => entries.map(([expected, predicted]) => scored(expected, predicted));

describe('agreementFigures', () => {
  it('matches a hand-computed κ for balanced labels: p_o 0.8, p_e 0.5, κ 0.6', () => {
    const outcomes = pairs([
      ['a', 'a'], ['a', 'a'], ['a', 'a'], ['a', 'a'], ['a', 'b'],
      ['b', 'a'], ['b', 'b'], ['b', 'b'], ['b', 'b'], ['b', 'b'],
    ]);
    const figures = agreementFigures(['a', 'b'], outcomes);
    expect(figures.n).toBe(10);
    expect(figures.agreements).toBe(8);
    expect(figures.accuracy).toBe(0.8);
    expect(figures.kappa).toBeCloseTo(0.6, 12);
    expect(figures.confusion).toEqual({ a: { a: 4, b: 1 }, b: { a: 1, b: 4 } });
  });

  it('matches a hand-computed κ for unbalanced labels: p_o 0.8, p_e 0.52, κ 0.28 / 0.48', () => {
    const outcomes = pairs([
      ['a', 'a'], ['a', 'a'], ['a', 'a'], ['a', 'a'], ['a', 'a'], ['a', 'b'],
      ['b', 'a'], ['b', 'b'], ['b', 'b'], ['b', 'b'],
    ]);
    expect(agreementFigures(['a', 'b'], outcomes).kappa).toBeCloseTo(0.28 / 0.48, 12);
  });

  it('computes κ over three choices: p_o 2/3, p_e 1/3, κ 0.5', () => {
    const outcomes = pairs([
      ['warm', 'warm'], ['warm', 'warm'],
      ['neutral', 'neutral'], ['neutral', 'warm'],
      ['curt', 'curt'], ['curt', 'neutral'],
    ]);
    const figures = agreementFigures(['warm', 'neutral', 'curt'], outcomes);
    expect(figures.accuracy).toBeCloseTo(2 / 3, 12);
    expect(figures.kappa).toBeCloseTo(0.5, 12);
  });

  it('counts failed and not-scorable cases as disagreements of their own category', () => {
    const outcomes: CaseOutcome[] = [
      scored('a', 'a'),
      { status: 'failed', expected: 'a', error: 'timeout' },
      scored('b', 'b'),
      { status: 'not-scorable', expected: 'b', reason: 'no claims' },
    ];
    const figures = agreementFigures(['a', 'b'], outcomes);
    expect(figures.failed).toBe(1);
    expect(figures.notScorable).toBe(1);
    expect(figures.agreements).toBe(2);
    expect(figures.accuracy).toBe(0.5);
    // p_o = 0.5; p_e = 0.5·0.25 + 0.5·0.25 = 0.25; κ = 0.25 / 0.75.
    expect(figures.kappa).toBeCloseTo(1 / 3, 12);
    expect(figures.confusion).toEqual({ a: { a: 1, [noLabel.failed]: 1 }, b: { b: 1, [noLabel.notScorable]: 1 } });
  });

  it('gives κ 0 for a judge that always says the same label', () => {
    const outcomes = pairs([['a', 'a'], ['a', 'a'], ['a', 'a'], ['b', 'a']]);
    const figures = agreementFigures(['a', 'b'], outcomes);
    expect(figures.accuracy).toBe(0.75);
    expect(figures.kappa).toBe(0);
  });

  it('leaves κ undefined where it is not defined (chance agreement 1) and accuracy without cases', () => {
    expect(agreementFigures(['a', 'b'], pairs([['a', 'a'], ['a', 'a']])).kappa).toBeUndefined();
    const empty = agreementFigures(['a', 'b'], []);
    expect(empty.accuracy).toBeUndefined();
    expect(empty.kappa).toBeUndefined();
    expect(empty.confusion).toEqual({ a: {}, b: {} });
  });

  it('rejects a reference label outside the label set', () => {
    expect(() => agreementFigures(['a', 'b'], pairs([['c', 'a']]))).toThrow(/'c' is not one of a, b/);
  });
});

describe('labelForScore and the thresholds', () => {
  it('puts a score at the threshold on the upper side', () => {
    expect(labelForScore(0.5, thresholds['answer-relevancy'])).toBe('relevant');
    expect(labelForScore(0.49, thresholds['answer-relevancy'])).toBe('irrelevant');
    expect(labelForScore(0.25, thresholds.toxicity)).toBe('toxic');
    expect(labelForScore(0.2, thresholds.toxicity)).toBe('clean');
    expect(labelForScore(1, thresholds.bias)).toBe('biased');
    expect(labelForScore(0, thresholds.bias)).toBe('neutral');
  });

  it('labels faithfulness and hallucination alike for the same claim verdicts (scores that sum to 1)', () => {
    for (let claims = 1; claims <= 12; claims += 1) for (let supported = 0; supported <= claims; supported += 1) {
      const faithful = labelForScore(supported / claims, thresholds.faithfulness);
      const hallucinated = labelForScore((claims - supported) / claims, thresholds.hallucination);
      expect(hallucinated, `${supported} of ${claims} supported`).toBe(faithful);
    }
    expect(labelForScore(4 / 5, thresholds.faithfulness)).toBe('hallucinated');
    expect(labelForScore(5 / 6, thresholds.faithfulness)).toBe('faithful');
    expect(labelForScore(1 / 5, thresholds.hallucination)).toBe('hallucinated');
  });

  it('describes each threshold in words', () => {
    expect(describeThreshold(thresholds['answer-relevancy'])).toBe('relevant if score ≥ 0.5, else irrelevant');
    expect(describeThreshold(thresholds.faithfulness)).toBe('faithful if score > 0.8, else hallucinated');
  });
});

describe('percentile and costFigures', () => {
  it('takes the nearest rank', () => {
    expect(percentile([10, 20, 30, 40], 50)).toBe(20);
    expect(percentile([10, 20, 30, 40], 95)).toBe(40);
    expect(percentile([7], 95)).toBe(7);
    expect(percentile([], 50)).toBeUndefined();
    const hundred = Array.from({ length: 100 }, (_, index) => index + 1);
    expect(percentile(hundred, 50)).toBe(50);
    expect(percentile(hundred, 95)).toBe(95);
  });

  it('sums calls and tokens, sorts latencies, and divides calls by wall time', () => {
    const figures = costFigures(
      [
        { durationMs: 300, inputTokens: 100, outputTokens: 20, failed: false },
        { durationMs: 100, inputTokens: 50, outputTokens: 10, failed: false },
        { durationMs: 200, failed: true },
        { durationMs: 400, inputTokens: 70, outputTokens: 30, failed: false },
      ],
      2_000,
    );
    expect(figures).toEqual({
      calls: 4,
      failedCalls: 1,
      inputTokens: 220,
      outputTokens: 60,
      latencyP50Ms: 200,
      latencyP95Ms: 400,
      callsPerSecond: 2,
    });
  });

  it('has no latency without calls and no rate without time', () => {
    const figures = costFigures([], 0);
    expect(figures.latencyP50Ms).toBeUndefined();
    expect(figures.callsPerSecond).toBeUndefined();
  });
});
