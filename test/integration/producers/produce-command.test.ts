// `scorestream produce --sample` through the command module against a real broker: every
// generated run arrives, valid against the contract, with its own traceparent header.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { run } from '../../../cli/commands/produce.ts';
import { decodeAgentRunEvent } from '../../../src/kit/contracts/parse.ts';
import { readMessages, testBrokers, testKafka, uniqueName, useTopic } from '../../helpers/kafka.ts';
import { testRun } from '../../helpers/runs.ts';

const traceparentPattern = /^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/;

describe('scorestream produce', () => {
  afterEach(() => vi.restoreAllMocks());

  it('publishes 1000 schema-valid sample runs, each with its own traceparent', async () => {
    const topic = await useTopic({ prefix: 'produce', partitions: 6 });
    const output = vi.spyOn(console, 'log').mockImplementation(() => {});
    vi.spyOn(console, 'error').mockImplementation(() => {});

    const code = await run(['--sample', '--count', '1000', '--seed', 'integration', '--topic', topic, '--brokers', testBrokers().join(',')]);
    expect(code).toBe(0);
    expect(output.mock.calls.flat().join('\n')).toMatch(/^sent 1000 runs to .* runs\/s\); seed integration$/m);

    const messages = await readMessages(topic, { count: 1000, timeoutMs: 60_000 });
    const traceIds = new Set<string>();
    const runIds = new Set<string>();
    for (const message of messages) {
      const decoded = decodeAgentRunEvent(message.value);
      expect(decoded.success ? [] : decoded.problems).toEqual([]);
      if (decoded.success) {
        expect(message.key?.toString()).toBe(decoded.data.runId);
        runIds.add(decoded.data.runId);
      }
      const traceparent = String(message.headers.traceparent);
      expect(traceparent).toMatch(traceparentPattern);
      traceIds.add(traceparent.slice(3, 35));
    }
    expect(runIds.size).toBe(1000);
    expect(traceIds.size).toBe(1000);
    expect(new Set(messages.map((message) => message.partition)).size).toBe(6);
  });

  it('creates a missing topic with the asked partitions', async () => {
    const topic = uniqueName('produce-created');
    vi.spyOn(console, 'log').mockImplementation(() => {});
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const admin = testKafka('scorestream-test-admin').admin();
    await admin.connect();
    try {
      expect(await run(['--sample', '--count', '5', '--topic', topic, '--partitions', '2', '--brokers', testBrokers().join(',')])).toBe(0);
      const metadata = await admin.fetchTopicMetadata({ topics: [topic] });
      expect(metadata.topics[0]!.partitions).toHaveLength(2);
      expect((await readMessages(topic, { count: 5 })).length).toBe(5);
    } finally {
      await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
      await admin.disconnect();
    }
  });

  it('publishes the valid lines of a file and reports the invalid ones by line number', async () => {
    const topic = await useTopic({ prefix: 'produce-file', partitions: 2 });
    const output = vi.spyOn(console, 'log').mockImplementation(() => {});
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const path = join(await mkdtemp(join(tmpdir(), 'scorestream-produce-')), 'runs.jsonl');
    const lines = [
      JSON.stringify(testRun({ runId: 'file-1' })),
      '{"runId": "broken"',
      '',
      JSON.stringify({ ...testRun({ runId: 'file-2' }), timestamp: 'noon' }),
      JSON.stringify(testRun({ runId: 'file-3' })),
    ];
    await writeFile(path, `${lines.join('\n')}\n`);

    expect(await run(['--file', path, '--topic', topic, '--brokers', testBrokers().join(',')])).toBe(1);
    const printed = output.mock.calls.flat().join('\n');
    expect(printed).toContain('sent 2 runs');
    expect(printed).toContain('2 invalid lines skipped (line numbers: 2, 4)');
    expect(printed).toContain('line 4:\n    - timestamp: ');
    const messages = await readMessages(topic, { count: 2 });
    expect(messages.map((message) => message.key?.toString()).sort()).toEqual(['file-1', 'file-3']);
  });
});
