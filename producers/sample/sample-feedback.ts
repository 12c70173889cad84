// Feedback for the sample traffic (the demo, docs/feedback.md): a simulated person gives a thumbs
// up or down to a share of the sample runs, mostly as the answer deserves — up for a complete
// answer, down for an off-topic or empty one — and sometimes not, as people do, so the live join
// has agreements and disagreements to count. Seeded: the same seed gives the same feedback.
import type { FeedbackRecord } from '../../src/kit/contracts/feedback-record.ts';
import { feedbackIdFor } from '../../src/kit/contracts/feedback-id.ts';
import { createRandom } from './prng.ts';
import type { SampleRun } from './generate-sample-runs.ts';

/** The chance of a thumbs-up by the answer the agent gave. */
const THUMBS_UP_CHANCE: Record<SampleRun['answer'], number> = { complete: 0.9, mostly: 0.75, partial: 0.35, offTopic: 0.1, empty: 0.05, none: 0.05 };

const COMMENTS = {
  up: ['Exactly what I needed.', 'Thanks, that worked.', 'Clear answer.'],
  down: ['It did not answer my question.', 'Wrong order number.', 'Too vague to act on.', 'It never said when my order ships.'],
} as const;

export type SampleFeedbackOptions = { seed?: string | number; /** Share of runs that get feedback; default 0.2. */ share?: number; clock?: () => Date };

export function createSampleFeedback(options: SampleFeedbackOptions = {}): (sample: SampleRun) => FeedbackRecord | undefined {
  const random = createRandom(`${options.seed ?? 'scorestream'}-feedback`);
  const share = options.share ?? 0.2;
  const clock = options.clock ?? (() => new Date());
  return (sample) => {
    if (!random.chance(share)) return undefined;
    const up = random.chance(THUMBS_UP_CHANCE[sample.answer]);
    const target = { type: 'run' as const, runId: sample.event.runId };
    const submitterId = `user-${random.hex(6)}`;
    return {
      schemaVersion: 1,
      feedbackId: feedbackIdFor({ target, name: 'thumbs', source: 'end_user', submitterId }),
      target,
      source: 'end_user',
      submitter: { id: submitterId },
      name: 'thumbs',
      value: up,
      ...(random.chance(0.4) ? { comment: random.pick(up ? COMMENTS.up : COMMENTS.down) } : {}),
      submittedAt: clock().toISOString(),
    };
  };
}
