// An agreement record within the output's size limit (src/kit/contracts/fit-agreement-record.ts): a
// pair's comment — the one field that grows without bound — is cut on a character boundary to
// what fits, and says so; what cannot fit even without it is not written.
import { describe, expect, it } from 'vitest';
import type { AgreementPair, AgreementWindow } from '../../../../../src/kit/contracts/agreement-record.ts';
import { agreementRecordSchema } from '../../../../../src/kit/contracts/agreement-record.ts';
import { fitAgreementRecord } from '../../../../../src/kit/contracts/fit-agreement-record.ts';

const pair = (comment?: string): AgreementPair => ({
  schemaVersion: 1,
  kind: 'pair',
  agreementId: 'agreement-1',
  feedbackId: 'feedback-1',
  scoreId: 'score-1',
  runId: 'run-1',
  scorerId: 'relevancy',
  judge: { score: 0.9, label: 'pass' },
  human: { name: 'thumbs', value: false, label: 'fail', source: 'end_user', ...(comment === undefined ? {} : { comment }) },
  agree: false,
  measuredAt: '2026-12-06T00:00:00.000Z',
});
const bytes = (json: string) => Buffer.byteLength(json);

describe('fitAgreementRecord', () => {
  it('leaves a record within the limit as it is', () => {
    const record = pair('short');
    const fit = fitAgreementRecord(record, 10_000)!;
    expect(fit.record).toBe(record);
    expect(fit.json).toBe(JSON.stringify(record));
  });

  it('cuts a long comment to fit, never inside a character, and says how much it kept and dropped', () => {
    // Three-byte characters and quotes that JSON escapes: the cut must count bytes as written.
    const comment = '€"'.repeat(5_000);
    const fit = fitAgreementRecord(pair(comment), 2_000)!;
    expect(bytes(fit.json)).toBeLessThanOrEqual(2_000);
    const cut = fit.record as AgreementPair;
    expect(comment.startsWith(cut.human.comment!)).toBe(true);
    expect(cut.human.comment!.length).toBeGreaterThan(100);
    expect(cut.truncated).toEqual({ originalBytes: bytes(JSON.stringify(pair(comment))), limitBytes: 2_000, comment: { keptBytes: bytes(cut.human.comment!), droppedBytes: bytes(comment) - bytes(cut.human.comment!) } });
    // It reads back as an AgreementRecord v1.
    expect(agreementRecordSchema.safeParse(JSON.parse(fit.json)).success).toBe(true);
  });

  it('gives smaller forms for a broker that refuses what is within the limit, down to no comment, then none', () => {
    const fit = fitAgreementRecord(pair('x'.repeat(50_000)), 1_000_000)!;
    const sizes: number[] = [bytes(fit.json)];
    for (let form = fit.smaller(); form !== undefined; form = form.smaller()) sizes.push(bytes(form.json));
    expect(sizes.length).toBeGreaterThan(3);
    for (let index = 1; index < sizes.length; index += 1) expect(sizes[index]).toBeLessThan(sizes[index - 1]!);
    expect(sizes.at(-1)).toBeLessThan(1_000);
  });

  it('writes nothing when not even the pair without its comment fits, and never cuts a window', () => {
    expect(fitAgreementRecord(pair('comment'), 100)).toBeUndefined();
    const window: AgreementWindow = { schemaVersion: 1, kind: 'window', scorerId: 'relevancy', windowStart: '2026-12-06T00:00:00.000Z', windowEnd: '2026-12-06T01:00:00.000Z', n: 1, agreements: 1, accuracy: 1, kappa: null, confusion: { labels: ['pass'], counts: [[1]] }, measuredAt: '2026-12-06T00:00:00.000Z' };
    expect(fitAgreementRecord(window, 100)).toBeUndefined();
    expect(fitAgreementRecord(window, 10_000)!.record).toBe(window);
  });
});
