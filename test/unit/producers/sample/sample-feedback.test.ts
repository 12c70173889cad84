import { describe, expect, it } from 'vitest';
import { parseFeedbackRecord } from '../../../../src/kit/contracts/parse.ts';
import { humanLabel } from '../../../../src/engine/agreement/agreement-labels.ts';
import { createSampleFeedback, generateSampleRuns } from '../../../../producers/sample/index.ts';

describe('createSampleFeedback', () => {
  const runs = generateSampleRuns(2_000, { seed: 7, clock: () => new Date('2026-01-01T00:00:00Z') });

  it('gives valid thumbs to about the share of runs asked, the same for the same seed', () => {
    const feedback = runs.map(createSampleFeedback({ seed: 7, share: 0.2 })).filter((record) => record !== undefined);
    expect(feedback.length).toBeGreaterThan(300);
    expect(feedback.length).toBeLessThan(500);
    for (const record of feedback) expect(parseFeedbackRecord(record).success).toBe(true);
    const again = runs.map(createSampleFeedback({ seed: 7, share: 0.2 })).filter((record) => record !== undefined);
    expect(again.map((record) => record.feedbackId)).toEqual(feedback.map((record) => record.feedbackId));
  });

  it('mostly follows the answer, with some thumbs against it', () => {
    const give = createSampleFeedback({ seed: 7, share: 1 });
    const byAnswer = new Map<string, { up: number; down: number }>();
    for (const run of runs) {
      const record = give(run)!;
      const tally = byAnswer.get(run.answer) ?? { up: 0, down: 0 };
      if (humanLabel(record) === 'pass') tally.up += 1;
      else tally.down += 1;
      byAnswer.set(run.answer, tally);
    }
    const complete = byAnswer.get('complete')!;
    const offTopic = byAnswer.get('offTopic')!;
    expect(complete.up / (complete.up + complete.down)).toBeGreaterThan(0.8);
    expect(complete.down).toBeGreaterThan(0);
    expect(offTopic.up / (offTopic.up + offTopic.down)).toBeLessThan(0.2);
  });
});
