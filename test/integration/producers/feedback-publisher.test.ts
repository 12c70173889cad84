// publishFeedback against a real broker and the real scoring service: feedback lands keyed like
// its run's score records and on the same partition as them (the feedback join reads both sides
// of a run from one partition), decodes as FeedbackRecord v1, and an invalid batch lands nothing.
import { afterEach, describe, expect, it } from 'vitest';
import { createRunPublisher, InvalidFeedbackError } from '../../../producers/index.ts';
import type { RunPublisher } from '../../../producers/index.ts';
import { feedbackIdFor } from '../../../src/kit/contracts/feedback-id.ts';
import { decodeFeedbackRecord, parseScoreRecord } from '../../../src/kit/contracts/parse.ts';
import { answerLengthScorer } from '../../fixtures/scorers.ts';
import { readMessages, testKafka, useTopic } from '../../helpers/kafka.ts';
import { testRun } from '../../helpers/runs.ts';
import { startTestService } from '../../helpers/service.ts';

describe('publishFeedback against Kafka', () => {
  let publisher: RunPublisher | undefined;
  afterEach(async () => {
    await publisher?.close();
    publisher = undefined;
  });

  it("puts each run's feedback on the partition of that run's score records", async () => {
    const [runs, results, deadLetter, feedback] = await Promise.all([
      useTopic({ prefix: 'runs' }),
      useTopic({ prefix: 'scores', partitions: 4 }),
      useTopic({ prefix: 'dlq' }),
      useTopic({ prefix: 'feedback', partitions: 4 }),
    ]);
    publisher = createRunPublisher({ kafka: testKafka('scorestream-test-publisher'), topic: runs, feedbackTopic: feedback });
    const runIds = Array.from({ length: 8 }, (_, index) => `copartition-${index}`);
    await publisher.publish(runIds.map((runId) => testRun({ runId })));
    await startTestService({ topics: { runs, results, deadLetter }, scorers: [{ scorer: answerLengthScorer }] });
    const scores = await readMessages(results, { count: runIds.length });
    for (const message of scores) expect(parseScoreRecord(JSON.parse(message.value!.toString())).success).toBe(true);
    // A score record's key is its pair's scoreId; its partition follows the run id it names (src/kit/contracts/record-key.ts).
    const scorePartition = new Map(scores.map((message) => [(JSON.parse(message.value!.toString()) as { runId: string }).runId, message.partition]));
    expect(new Set(scorePartition.values()).size, 'the runs spread over several partitions').toBeGreaterThan(1);

    const report = await publisher.publishFeedback(
      runIds.map((runId) => {
        const target = { type: 'run' as const, runId };
        return { schemaVersion: 1, feedbackId: feedbackIdFor({ target, name: 'thumbs', source: 'end_user', submitterId: 'user-1' }), target, source: 'end_user', submitter: { id: 'user-1' }, name: 'thumbs', value: true, submittedAt: new Date().toISOString() };
      }),
    );
    expect(report).toMatchObject({ topic: feedback, count: runIds.length });
    const messages = await readMessages(feedback, { count: runIds.length });
    for (const message of messages) {
      const decoded = decodeFeedbackRecord(message.value);
      expect(decoded.success ? [] : decoded.problems).toEqual([]);
      if (!decoded.success || decoded.data.target.type !== 'run') continue;
      expect(message.key!.toString()).toBe(decoded.data.target.runId);
      expect(message.partition, decoded.data.target.runId).toBe(scorePartition.get(decoded.data.target.runId));
    }
  });

  it('lands nothing when a record of the batch is invalid', async () => {
    const feedback = await useTopic({ prefix: 'feedback' });
    publisher = createRunPublisher({ kafka: testKafka('scorestream-test-publisher'), feedbackTopic: feedback });
    const valid = { schemaVersion: 1, feedbackId: 'f-ok', target: { type: 'run', runId: 'r' }, source: 'reviewer', name: 'correct', value: 'yes', submittedAt: new Date().toISOString() } as const;
    await expect(publisher.publishFeedback([valid, { ...valid, feedbackId: 'f-bad', target: { type: 'run', runId: '' } }])).rejects.toSatisfy(InvalidFeedbackError.isInstance);
    await publisher.publishFeedback({ ...valid, feedbackId: 'f-after' });
    const [only] = await readMessages(feedback, { count: 1 });
    expect(JSON.parse(only!.value!.toString()).feedbackId).toBe('f-after');
    expect(only!.offset).toBe('0');
  });
});
