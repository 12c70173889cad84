// κ, weighted κ and accuracy against values worked out by hand (the arithmetic is in the comments).
import { describe, expect, it } from 'vitest';
import { agreementFigures } from '../../../../../src/engine/agreement/agreement-figures.ts';
import type { ConfusionMatrix } from '../../../../../src/engine/agreement/confusion-matrix.ts';
import { accuracy, cohensKappa, weightedKappa } from '../../../../../src/engine/agreement/kappa.ts';

const matrix = (labels: string[], counts: number[][]): ConfusionMatrix => ({ labels, counts });

describe('two labels', () => {
  // 50 pairs: both yes 20, person yes / judge no 5, person no / judge yes 10, both no 15.
  // p_o = 35/50 = 0.7; rows 25, 25; columns 30, 20; p_e = (25·30 + 25·20)/2500 = 0.5;
  // κ = (0.7 − 0.5)/(1 − 0.5) = 0.4.
  const yesNo = matrix(['yes', 'no'], [[20, 5], [10, 15]]);

  it('accuracy 0.7 and κ 0.4', () => {
    expect(accuracy(yesNo)).toBe(0.7);
    expect(cohensKappa(yesNo)).toBeCloseTo(0.4, 12);
  });

  it('weighted κ equals κ when there are only two labels', () => {
    expect(weightedKappa(yesNo, 'linear')).toBeCloseTo(0.4, 12);
    expect(weightedKappa(yesNo, 'quadratic')).toBeCloseTo(0.4, 12);
  });

  it('κ is 0 for a judge that always says the same, and negative for one that disagrees more than chance', () => {
    // rows 30, 20; columns 50, 0: p_o = 30/50 = p_e = 0.6.
    expect(cohensKappa(matrix(['yes', 'no'], [[30, 0], [20, 0]]))).toBe(0);
    // p_o = 0, p_e = 0.5: κ = −1.
    expect(cohensKappa(matrix(['yes', 'no'], [[0, 25], [25, 0]]))).toBe(-1);
  });
});

describe('an ordinal scale of three labels', () => {
  // rows (person): warm 12, neutral 12, curt 16; columns (judge): 13, 14, 13; n = 40.
  const tone = matrix(['warm', 'neutral', 'curt'], [[10, 2, 0], [3, 8, 1], [0, 4, 12]]);

  it('κ: p_o = 30/40, p_e = (12·13 + 12·14 + 16·13)/1600 = 532/1600, κ = 167/267', () => {
    expect(accuracy(tone)).toBe(0.75);
    expect(cohensKappa(tone)).toBeCloseTo(167 / 267, 12);
  });

  it('linear weights (½ for a neighbour, 1 across): Σwo = 5/40, Σwe = 716/1600, κ_w = 129/179', () => {
    expect(weightedKappa(tone, 'linear')).toBeCloseTo(129 / 179, 12);
  });

  it('quadratic weights (¼ for a neighbour, 1 across): Σwo = 2.5/40, Σwe = 540/1600, κ_w = 22/27', () => {
    expect(weightedKappa(tone, 'quadratic')).toBeCloseTo(22 / 27, 12);
  });
});

describe('where the figures are undefined', () => {
  it('without pairs', () => {
    const none = matrix(['yes', 'no'], [[0, 0], [0, 0]]);
    expect([accuracy(none), cohensKappa(none), weightedKappa(none, 'linear')]).toEqual([undefined, undefined, undefined]);
  });

  it('κ when chance agreement is total: person and judge always gave the same single label', () => {
    const same = matrix(['yes', 'no'], [[9, 0], [0, 0]]);
    expect(accuracy(same)).toBe(1);
    expect(cohensKappa(same)).toBeUndefined();
    expect(weightedKappa(same, 'quadratic')).toBeUndefined();
  });

  it('weighted κ of a one-label scale', () => {
    expect(weightedKappa(matrix(['only'], [[4]]), 'linear')).toBeUndefined();
  });
});

describe('agreementFigures', () => {
  it('gathers n, agreements, accuracy and κ, and weighted κ only for an ordinal scale', () => {
    const yesNo = matrix(['yes', 'no'], [[20, 5], [10, 15]]);
    expect(agreementFigures(yesNo)).toEqual({ n: 50, agreements: 35, accuracy: 0.7, kappa: cohensKappa(yesNo) });
    expect(agreementFigures(yesNo, { ordinal: true }).weightedKappa).toEqual({ linear: weightedKappa(yesNo, 'linear'), quadratic: weightedKappa(yesNo, 'quadratic') });
  });
});
