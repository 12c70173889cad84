import { describe, expect, it } from 'vitest';
import { confusionCounts, confusionMatrix, countPair, emptyConfusionMatrix } from '../../../../../src/engine/agreement/confusion-matrix.ts';

describe('confusion matrices', () => {
  it('counts each pair at [reference][predicted] in the order of the labels', () => {
    const matrix = confusionMatrix(['pass', 'fail'], [
      { reference: 'pass', predicted: 'pass' },
      { reference: 'pass', predicted: 'fail' },
      { reference: 'fail', predicted: 'pass' },
      { reference: 'pass', predicted: 'pass' },
    ]);
    expect(matrix.counts).toEqual([[2, 1], [1, 0]]);
    expect(confusionCounts(matrix)).toEqual({ pass: { pass: 2, fail: 1 }, fail: { pass: 1 } });
  });

  it('refuses a label outside its list, naming the list, and counts nothing of it', () => {
    const matrix = emptyConfusionMatrix(['pass', 'fail']);
    expect(() => countPair(matrix, { reference: 'pass', predicted: 'maybe' })).toThrow("predicted label 'maybe' is not one of pass, fail");
    expect(() => countPair(matrix, { reference: 'unsure', predicted: 'pass' })).toThrow("reference label 'unsure' is not one of pass, fail");
    expect(matrix.counts).toEqual([[0, 0], [0, 0]]);
  });

  it('refuses an empty or repeated label list', () => {
    expect(() => emptyConfusionMatrix([])).toThrow(RangeError);
    expect(() => emptyConfusionMatrix(['pass', 'pass'])).toThrow('must differ');
  });
});
