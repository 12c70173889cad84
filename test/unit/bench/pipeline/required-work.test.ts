import { describe, expect, it } from 'vitest';
import { asConsumedMessages, createEventPool } from '../../../../bench/pipeline/bench-events.ts';
import { createCodeScorers } from '../../../../bench/pipeline/bench-scorers.ts';
import { serviceMessageContext } from '../../../../bench/pipeline/pipeline-alone.ts';
import { requiredRecords } from '../../../../bench/pipeline/required-work.ts';
import { createMessagePath } from '../../../../consumers/message-path.ts';
import { untracedMessage } from '../../../../consumers/message-trace.ts';
import type { MessageOutput } from '../../../../consumers/record-sink.ts';
import { runEventSource } from '../../../../consumers/run-event-source.ts';

type Written = { key: string; record: Record<string, unknown> };

/** What a record says about its pair: everything (m) must compute as the service does. */
const essentials = ({ key, record }: Written) => ({
  key,
  scoreId: record.scoreId,
  runId: record.runId,
  scorerId: record.scorerId,
  status: record.status,
  score: record.score,
  trace: record.trace,
  steps: Object.keys(record.steps as object),
});

describe('requiredRecords, the work of scenario (m)', () => {
  it('writes, for every event and scorer, the score record the service writes: same key, score id, score, trace fields and steps', async () => {
    const scorers = createCodeScorers();
    const messages = asConsumedMessages(createEventPool(12));
    const service: Written[] = [];
    const output: MessageOutput = {
      publish: async (batch) => {
        for (const record of batch) service.push({ key: String(record.key), record: JSON.parse(String(record.value)) });
      },
    };
    const partition = createMessagePath(serviceMessageContext(scorers)).partition(runEventSource);
    const bySelf: Written[] = [];
    for (const message of messages) {
      const source = { topic: 'runs', partition: 0, offset: message.offset };
      await partition.process(message, { source, output, trace: untracedMessage(message) });
      const traceparent = String(message.headers!.traceparent);
      for (const { key, value } of await requiredRecords(message.value, traceparent, source, scorers)) bySelf.push({ key, record: JSON.parse(value) });
    }
    expect(bySelf).toHaveLength(12 * scorers.length);
    expect(bySelf.map(essentials)).toEqual(service.map(essentials));
    // The benchmark's events all carry a sampled traceparent: the records link to the agent's span.
    for (const { record } of bySelf) expect(record.trace).toMatchObject({ traceId: expect.stringMatching(/^[0-9a-f]{32}$/), parentSpanId: expect.stringMatching(/^[0-9a-f]{16}$/) });
  });

  it('refuses an event that does not validate, rather than scoring less than the service would', async () => {
    await expect(requiredRecords(Buffer.from('{"not":"a run"}'), undefined, { topic: 'runs', partition: 0, offset: '7' }, createCodeScorers())).rejects.toThrow(/offset 7 does not decode/);
  });
});
