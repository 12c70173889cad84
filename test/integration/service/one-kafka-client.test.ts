// One Kafka client per process (docs/architecture.md, the Kafka edge): `scorestream start` runs
// its admin work, its group-less reads, its producers and its group consumer on
// @platformatic/kafka, and never loads kafkajs (the documented alternative, loaded only when
// `kafka.client` names it). Read off the process itself: a module hook records every Kafka
// client library it resolves.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { uniqueGroupId } from '../../helpers/kafka.ts';
import { spawnService, waitForLog } from '../../helpers/service-process.ts';
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
});
