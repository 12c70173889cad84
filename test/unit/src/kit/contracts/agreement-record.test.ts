import { describe, expect, it } from 'vitest';
import { agreementIdFor } from '../../../../../src/kit/contracts/agreement-id.ts';
import { parseAgreementRecord } from '../../../../../src/kit/contracts/parse.ts';
import { agreementPair, agreementWindow } from './fixtures.ts';

describe('parseAgreementRecord', () => {
  it('accepts a pair and a window summary, κ null where it is undefined', () => {
    expect(parseAgreementRecord(agreementPair()).success).toBe(true);
    expect(parseAgreementRecord(agreementWindow()).success).toBe(true);
    expect(parseAgreementRecord({ ...agreementWindow(), n: 0, agreements: 0, accuracy: null, kappa: null, weightedKappa: { linear: null, quadratic: null }, confusion: { labels: ['pass', 'fail'], counts: [[0, 0], [0, 0]] } }).success).toBe(true);
  });

  it('refuses a confusion table that is not one row and one column per label', () => {
    const result = parseAgreementRecord({ ...agreementWindow(), confusion: { labels: ['pass', 'fail'], counts: [[20, 5, 1], [10, 15, 0]] } });
    expect(result).toMatchObject({ success: false, problems: [{ path: 'confusion.counts', message: 'confusion.counts must be a square table with one row and one column per label' }] });
  });

  it('names the problems of a pair: no human label, an unknown kind', () => {
    const pair = agreementPair();
    const result = parseAgreementRecord({ ...pair, human: { ...(pair.human as object), label: '' } });
    expect(result).toMatchObject({ success: false, problems: [{ path: 'human.label' }] });
    expect(parseAgreementRecord({ ...pair, kind: 'guess' })).toMatchObject({ success: false, problems: [{ path: 'kind' }] });
  });

  it('gives a pair the same id whenever it is measured again', () => {
    const id = agreementIdFor({ feedbackId: 'fb-1', scoreId: 's-1' });
    expect(agreementIdFor({ feedbackId: 'fb-1', scoreId: 's-1' })).toBe(id);
    expect(agreementIdFor({ feedbackId: 'fb-1', scoreId: 's-2' })).not.toBe(id);
    expect(agreementIdFor({ feedbackId: 'fb-1s', scoreId: '-1' })).not.toBe(id);
  });
});
