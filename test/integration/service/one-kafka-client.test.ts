// One Kafka client per process (docs/architecture.md, the Kafka edge): `scorestream start` and
// `scorestream replay` run their admin work, their group-less reads, their producers and their
// group consumer on @platformatic/kafka, and never load kafkajs (the documented alternative, loaded only when
// `kafka.client` names it). Read off the process itself: a module hook records every Kafka
// client library it resolves.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { uniqueGroupId } from '../../helpers/kafka.ts';
import { spawn } from 'node:child_process';
import { spawnService, waitForLog } from '../../helpers/service-process.ts';
import { testBrokers } from '../../helpers/kafka.ts';
import { produceRaw, readRecords, useServiceTopics } from '../../helpers/service.ts';
import { testRun } from '../../helpers/runs.ts';

const hook = fileURLToPath(new URL('../../fixtures/hooks/record-kafka-clients.mjs', import.meta.url));

const loadedClients = (file: string) => [...new Set(readFileSync(file, 'utf8').split('\n').filter(Boolean))].sort();

describe('one Kafka client per process', () => {
  it('the service scores on @platformatic/kafka alone: kafkajs is never loaded', { timeout: 120_000 }, async () => {
    const topics = await useServiceTopics();
    const file = join(mkdtempSync(join(tmpdir(), 'scorestream-clients-')), 'clients');
    const service = spawnService({
      topics,
      groupId: uniqueGroupId('one-client'),
      env: { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${hook}`.trim(), SCORESTREAM_TEST_CLIENTS_FILE: file, SCORESTREAM_KAFKA_CLIENT: 'platformatic' },
    });
    await waitForLog(service, /scorestream is consuming/);
    await produceRaw(topics.runs, [{ key: 'one-client-1', value: JSON.stringify(testRun({ runId: 'one-client-1' })) }]);
    expect((await readRecords(topics.results, 2)).map((record) => record.runId)).toEqual(['one-client-1', 'one-client-1']);
    service.child.kill('SIGTERM');
    expect((await service.exited).code).toBe(0);
    expect(loadedClients(file)).toEqual(['@platformatic/kafka']);
  });

  it('a replay reads its range and scores it on @platformatic/kafka alone: kafkajs is never loaded', { timeout: 120_000 }, async () => {
    const topics = await useServiceTopics();
    const from = new Date(Date.now() - 60_000).toISOString();
    await produceRaw(topics.runs, [{ key: 'one-client-replay', value: JSON.stringify(testRun({ runId: 'one-client-replay' })) }]);
    const file = join(mkdtempSync(join(tmpdir(), 'scorestream-clients-')), 'clients');
    const cli = fileURLToPath(new URL('../../../cli/main.ts', import.meta.url));
    const config = fileURLToPath(new URL('../../fixtures/service.config.ts', import.meta.url));
    const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', '--import', hook, cli, 'replay', '--config', config, '--from', from], {
      env: {
        ...process.env,
        KAFKA_BROKERS: testBrokers().join(','),
        SCORESTREAM_GROUP_ID: uniqueGroupId('one-client-replay'),
        SCORESTREAM_TOPIC_RUNS: topics.runs,
        SCORESTREAM_TOPIC_RESULTS: topics.results,
        SCORESTREAM_TOPIC_DEAD_LETTER: topics.deadLetter,
        SCORESTREAM_KAFKA_CLIENT: 'platformatic',
        SCORESTREAM_TEST_CLIENTS_FILE: file,
        OTEL_SDK_DISABLED: 'true',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    expect(code, output).toBe(0);
    const records = await readRecords<{ runId: string; replay?: { id: string } }>(topics.results, 2);
    expect(records.map((record) => record.runId)).toEqual(['one-client-replay', 'one-client-replay']);
    for (const record of records) expect(record.replay?.id).toEqual(expect.any(String));
    expect(loadedClients(file)).toEqual(['@platformatic/kafka']);
  });
});
