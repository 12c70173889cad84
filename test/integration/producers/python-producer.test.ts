// The Python producer example (examples/python/produce_runs.py, confluent-kafka from PyPI) against
// the test broker: its runs are valid run events the service scores, each record inside the trace
// its W3C traceparent header named, keyed and partitioned like the TypeScript producer's. The
// virtual environment is cached outside the clone (scripts/python-example-venv.ts; .ci/run makes it).
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parseScoreRecord } from '../../../src/kit/contracts/parse.ts';
import type { ScoreRecord } from '../../../src/kit/contracts/score-record.ts';
import { keyPartitioner } from '../../../kafka/key-partitioner.ts';
import { pythonExampleDirectory, pythonExampleVenv } from '../../../scripts/python-example-venv.ts';
import { answerLengthScorer } from '../../fixtures/scorers.ts';
import { testBrokers } from '../../helpers/kafka.ts';
import { readRecords, startTestService, useServiceTopics } from '../../helpers/service.ts';

const run = promisify(execFile);

describe('the Python producer example', () => {
  it('publishes runs the service scores inside the traces their headers name', async () => {
    const python = await pythonExampleVenv();
    const topics = await useServiceTopics(3);
    const { stdout } = await run(python, [join(pythonExampleDirectory, 'produce_runs.py'), '--brokers', testBrokers().join(','), '--topic', topics.runs, '--count', '4', '--run-id-prefix', 'py-'], { timeout: 60_000 });
    const published = stdout.trim().split('\n').map((line) => JSON.parse(line) as { runId: string; traceparent: string; partition: number });
    expect(published.map((entry) => entry.runId).sort()).toEqual(['py-0', 'py-1', 'py-2', 'py-3']);
    // librdkafka's murmur2 partitioner places a key where Scorestream's (and the Java client's) would.
    const partitionOf = keyPartitioner();
    const metadata = [0, 1, 2].map((partitionId) => ({ partitionId, leader: 0, partitionErrorCode: 0, replicas: [0], isr: [0] }));
    for (const entry of published) expect(entry.partition).toBe(partitionOf({ topic: topics.runs, partitionMetadata: metadata, message: { key: entry.runId, value: '' } }));

    const service = await startTestService({ topics, scorers: [{ scorer: answerLengthScorer }] });
    const records = await readRecords<ScoreRecord>(topics.results, 4);
    await expect.poll(() => service.stats.completed, { timeout: 10_000 }).toBe(4);
    expect(service.stats.deadLettered).toBe(0);
    for (const record of records) {
      expect(parseScoreRecord(record).success).toBe(true);
      const sent = published.find((entry) => entry.runId === record.runId)!;
      const [, traceId, spanId] = sent.traceparent.split('-');
      expect(record).toMatchObject({ status: 'scored', entity: { id: 'python-support-agent' }, metadata: { tenantId: 'acme' }, trace: { traceId, parentSpanId: spanId } });
      expect(record.source.partition).toBe(sent.partition);
    }
  });
});
