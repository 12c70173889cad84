import { createRequire } from 'node:module';
import { randomBytes } from 'node:crypto';
import type { PartitionerArgs, PartitionMetadata } from 'kafkajs';
import { Partitioners } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { keyPartitioner, murmur2 } from '../../../kafka/key-partitioner.ts';

const require = createRequire(import.meta.url);
const kafkajsMurmur2 = require('kafkajs/src/producer/partitioners/default/murmur2.js') as (key: Buffer | string) => number;

const metadata = (count: number, leaderless: number[] = []): PartitionMetadata[] =>
  Array.from({ length: count }, (_, partitionId) => ({ partitionId, leader: leaderless.includes(partitionId) ? -1 : 0, partitionErrorCode: 0, replicas: [0], isr: [0] }));

describe('murmur2', () => {
  it("matches the Java client's Utils.murmur2 reference values", () => {
    // From Apache Kafka's UtilsTest.testMurmur2.
    const cases: Array<[string, number]> = [
      ['21', -973932308],
      ['foobar', -790332482],
      ['a-little-bit-long-string', -985981536],
      ['a-little-bit-longer-string', -1486304829],
      ['lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8', -58897971],
      ['abc', 479470107],
    ];
    for (const [key, expected] of cases) expect(murmur2(Buffer.from(key)), key).toBe(expected);
  });

  it("equals kafkajs' own murmur2 on random bytes of every length 0..64", () => {
    for (let length = 0; length <= 64; length += 1) {
      for (let sample = 0; sample < 50; sample += 1) {
        const key = randomBytes(length);
        expect(murmur2(key), key.toString('hex')).toBe(kafkajsMurmur2(key));
      }
    }
  });
});

describe('keyPartitioner', () => {
  const topic = 'scores';
  const args = (message: PartitionerArgs['message'], partitions = metadata(6)): PartitionerArgs => ({ topic, partitionMetadata: partitions, message });

  it("puts keyed records on the partitions kafkajs' DefaultPartitioner chooses", () => {
    const ours = keyPartitioner();
    const theirs = Partitioners.DefaultPartitioner();
    for (let index = 0; index < 2000; index += 1) {
      const key = index % 2 === 0 ? `run-${index}-${randomBytes(6).toString('hex')}` : Buffer.from(`run-é-${index}`);
      for (const count of [1, 3, 6, 50]) {
        expect(ours(args({ key, value: 'x' }, metadata(count)))).toBe(theirs(args({ key, value: 'x' }, metadata(count))));
      }
    }
  });

  it('places a record with a partitionKey by it, not by its key (score records: keyed by scoreId, placed by run id)', () => {
    const ours = keyPartitioner();
    const theirs = Partitioners.DefaultPartitioner();
    for (let index = 0; index < 500; index += 1) {
      const runId = `run-${index}-${randomBytes(4).toString('hex')}`;
      const record = { key: `score-of-${runId}`, value: 'x', partitionKey: runId } as PartitionerArgs['message'];
      for (const count of [1, 3, 6, 50]) expect(ours(args(record, metadata(count)))).toBe(theirs(args({ key: runId, value: 'x' }, metadata(count))));
    }
  });

  it('keeps an explicit partition', () => {
    expect(keyPartitioner()(args({ key: 'run-1', value: 'x', partition: 4 }))).toBe(4);
  });

  it('spreads records without a key round-robin over partitions that have a leader', () => {
    const partition = keyPartitioner();
    const chosen = Array.from({ length: 12 }, () => partition(args({ key: null, value: 'x' }, metadata(4, [1]))));
    expect(new Set(chosen)).toEqual(new Set([0, 2, 3]));
    const counts = chosen.reduce((tally, id) => tally.set(id, (tally.get(id) ?? 0) + 1), new Map<number, number>());
    expect([...counts.values()]).toEqual([4, 4, 4]);
  });
});
