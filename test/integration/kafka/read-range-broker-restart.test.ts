// The group-less edge across a broker restart: a following readRange (kafka/read-range.ts) says
// it retries, goes on once the broker is back and delivers what was written after; the admin
// (kafka/kafka-admin.ts) and fetchAt (kafka/fetch-at.ts) answer right after a restart, while
// leaders settle. Uses a broker of its own (same ports and data across the restart), so it cannot
// run against KAFKA_BROKERS.
import { describe, expect, it, onTestFinished } from 'vitest';
import { createFetchAt } from '../../../kafka/fetch-at.ts';
import { createKafkaAdmin } from '../../../kafka/kafka-admin.ts';
import { collectRange, eventually } from '../../helpers/group-less-reads.ts';
import { uniqueName } from '../../helpers/kafka.ts';
import { useRestartableBroker } from '../../helpers/restartable-broker.ts';

describe.skipIf(process.env.KAFKA_BROKERS !== undefined)('the group-less edge across a broker restart', () => {
  it('follows a topic across a restart, says it retries, and answers offsets and positions right after one', async () => {
    const broker = await useRestartableBroker('range-restart');
    const connection = { clientId: uniqueName('range-restart'), bootstrapBrokers: broker.brokers };
    const topic = broker.topics.runs;
    await broker.produce(['run-1', 'run-2']);
    const warnings: string[] = [];
    const { read, collected } = collectRange(connection, { topics: [topic], from: 'beginning', until: 'follow', onWarning: (message) => warnings.push(message) });
    await read.caughtUp;

    await broker.restart(1_000);
    await broker.produce(['run-3', 'run-4']);
    await eventually('the runs written after the restart', () => collected.length === 4, 90_000);
    expect(collected.map(({ key }) => key).sort()).toEqual(['run-1', 'run-2', 'run-3', 'run-4']);
    expect(warnings.some((warning) => warning.includes('retrying until Kafka answers'))).toBe(true);
    await read.stop();
    await read.done;

    await broker.restart(500);
    const admin = createKafkaAdmin(connection);
    onTestFinished(() => admin.close());
    const offsets = await admin.partitionOffsets(topic);
    expect(offsets.reduce((sum, { high }) => sum + high, 0n)).toBe(4n);
    const messages = createFetchAt(connection);
    onTestFinished(() => messages.close());
    const at = collected[0]!;
    const found = await messages.fetchAt({ topic, partition: at.partition, offset: at.offset });
    expect(found.found && found.message.key?.toString()).toBe(at.key);
  });
});
