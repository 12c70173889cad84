// Evaluation log records through the real parts: `scorestream start` with OTEL_LOGS_EXPORTER=otlp
// exporting OTLP/HTTP to the project's OpenTelemetry Collector (built from the Go module proxy,
// local/collector/), whose logs pipeline writes them to a Kafka topic as OTLP/JSON. Every score of a
// run arrives there as a `gen_ai.evaluation.result` log record on the agent run's span, with the
// record's reason as its explanation — redacted as the record is (a planted e-mail address is
// absent), and absent for a binding at evidence 'none'.
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { fileURLToPath } from 'node:url';
import type { ScoreRecord } from '../../../src/kit/contracts/score-record.ts';
import { ensureCollectorBinary, startCollector } from '../../../local/collector/index.ts';
import { readMessages, testBrokers, uniqueGroupId, useTopic } from '../../helpers/kafka.ts';
import { traceFor, testRun } from '../../helpers/runs.ts';
import { produceRaw, readRecords, useServiceTopics } from '../../helpers/service.ts';
import { spawnService, waitForLog } from '../../helpers/service-process.ts';

beforeAll(async () => {
  await ensureCollectorBinary({ onBuild: (message) => process.stderr.write(`${message}\n`) });
}, 20 * 60_000);

type JsonValue = { stringValue?: string; intValue?: string | number; doubleValue?: number; boolValue?: boolean };
type JsonLogRecord = { eventName?: string; traceId?: string; spanId?: string; attributes?: Array<{ key: string; value: JsonValue }> };
type JsonLogs = { resourceLogs: Array<{ scopeLogs: Array<{ logRecords?: JsonLogRecord[] }> }> };

const attribute = (record: JsonLogRecord, key: string) => {
  const value = record.attributes?.find((entry) => entry.key === key)?.value;
  return value?.stringValue ?? value?.intValue ?? value?.doubleValue ?? value?.boolValue;
};

const config = fileURLToPath(new URL('../../fixtures/evaluation-logs.config.ts', import.meta.url));

describe('evaluation log records through a real OpenTelemetry Collector', () => {
  it('every score of a run arrives on the agent span, its explanation redacted, none at evidence none', async () => {
    const topics = await useServiceTopics();
    const logsTopic = await useTopic({ prefix: 'evaluation-logs' });
    const collector = await startCollector({ brokers: testBrokers(), topic: `${logsTopic}-traces`, encoding: 'otlp_proto', logs: { topic: logsTopic, encoding: 'otlp_json' } });
    onTestFinished(() => collector.stop());
    const service = spawnService({
      topics,
      groupId: uniqueGroupId('evaluation-logs'),
      config,
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint, OTEL_LOGS_EXPORTER: 'otlp', OTEL_TRACES_EXPORTER: 'none', OTEL_METRICS_EXPORTER: 'none', OTEL_BLRP_SCHEDULE_DELAY: '200' },
    });
    onTestFinished(async () => {
      service.child.kill('SIGTERM');
      await service.exited;
    });
    await waitForLog(service, /scorestream is consuming/);

    const runId = 'evaluation-log-run';
    const planted = 'jane.doe@example.com';
    await produceRaw(topics.runs, [{ key: runId, value: JSON.stringify(testRun({ runId, answer: `Order shipped; a copy went to ${planted}.` })), headers: { traceparent: traceFor(runId).traceparent } }]);
    const records = await readRecords<ScoreRecord>(topics.results, 2);

    const messages = await readMessages(logsTopic, { count: 1, timeoutMs: 60_000 });
    let logRecords = messages.flatMap((message) => (JSON.parse(message.value!.toString('utf8')) as JsonLogs).resourceLogs.flatMap((resource) => resource.scopeLogs.flatMap((scope) => scope.logRecords ?? [])));
    // The two records may leave in two batches.
    if (logRecords.length < 2) {
      const more = await readMessages(logsTopic, { count: 2, timeoutMs: 30_000 });
      logRecords = more.flatMap((message) => (JSON.parse(message.value!.toString('utf8')) as JsonLogs).resourceLogs.flatMap((resource) => resource.scopeLogs.flatMap((scope) => scope.logRecords ?? [])));
    }
    expect(logRecords).toHaveLength(2);
    const { traceId, spanId } = traceFor(runId);
    for (const record of records) {
      const log = logRecords.find((candidate) => attribute(candidate, 'scorestream.score_id') === record.scoreId)!;
      expect(log, record.scorerId).toBeDefined();
      expect(log.eventName).toBe('gen_ai.evaluation.result');
      expect(log.traceId).toBe(traceId);
      expect(log.spanId).toBe(spanId);
      expect(attribute(log, 'gen_ai.evaluation.name')).toBe(record.scorerId);
      expect(attribute(log, 'gen_ai.evaluation.score.value')).toBe(0.7);
    }
    const full = logRecords.find((log) => attribute(log, 'gen_ai.evaluation.name') === 'quotes-answer')!;
    expect(attribute(full, 'gen_ai.evaluation.score.label')).toBe('pass');
    // The reason quoted the answer: it arrives as the record has it, the address redacted.
    const explanation = String(attribute(full, 'gen_ai.evaluation.explanation'));
    expect(explanation).toContain('the answer was: Order shipped; a copy went to');
    expect(explanation).not.toContain(planted);
    expect(explanation).toBe(records.find((record) => record.scorerId === 'quotes-answer')!.reason);
    const none = logRecords.find((log) => attribute(log, 'gen_ai.evaluation.name') === 'quotes-answer-no-evidence')!;
    expect(attribute(none, 'gen_ai.evaluation.explanation')).toBeUndefined();
    // Nothing else carried the address: not the whole topic.
    expect(messages.some((message) => message.value!.toString('utf8').includes(planted))).toBe(false);
  });
});
