// Scores written long after the agent's span ended, through the real parts: the service in this
// process with the real SDK's logs signal (startTelemetry and evaluationLogOptions, as
// `scorestream start` sets them up) exporting OTLP/HTTP to the project's Collector, whose logs
// pipeline writes to Kafka as OTLP/JSON. A thread version scored after the thread resumed sits on
// its last turn's agent span and names the version it supersedes; a re-score asked for by a
// thumbs-down sits on the run's agent span and names the score it supersedes and the feedback.
import { setTimeout as delay } from 'node:timers/promises';
import pino from 'pino';
import { context, diag, logs, metrics, propagation, trace } from '@opentelemetry/api';
import { afterEach, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { ensureCollectorBinary, startCollector } from '../../../local/collector/index.ts';
import { evaluationLogOptions } from '../../../otel/evaluation-logs.ts';
import { startTelemetry } from '../../../otel/setup.ts';
import type { Telemetry } from '../../../otel/setup.ts';
import { startAgreementJoin } from '../../../service/agreement-join.ts';
import type { FeedbackRecord } from '../../../src/kit/contracts/feedback-record.ts';
import type { ScoreRecord } from '../../../src/kit/contracts/score-record.ts';
import { createScorer } from '../../../src/kit/scorer/create-scorer.ts';
import { threadBindings } from '../../fixtures/thread-bindings.ts';
import { readMessages, testBrokers, testEdge, useTopic } from '../../helpers/kafka.ts';
import { testRun, traceFor } from '../../helpers/runs.ts';
import { produceRaw, readUntil, startTestService, useServiceTopics } from '../../helpers/service.ts';
import { threadScores, turn, useThreadServiceTopics } from '../service/thread-helpers.ts';

beforeAll(async () => {
  await ensureCollectorBinary({ onBuild: (message) => process.stderr.write(`${message}\n`) });
}, 20 * 60_000);

let telemetry: Telemetry | undefined;
afterEach(async () => {
  await telemetry?.shutdown();
  telemetry = undefined;
  // The SDK registered the API's globals for this process; the next test registers its own.
  for (const api of [logs, trace, context, propagation, metrics, diag]) api.disable();
  vi.unstubAllEnvs();
});

type JsonValue = { stringValue?: string; intValue?: string | number; doubleValue?: number; arrayValue?: { values?: JsonValue[] } };
type JsonLogRecord = { eventName?: string; traceId?: string; spanId?: string; timeUnixNano?: string; attributes?: Array<{ key: string; value: JsonValue }> };
type JsonLogs = { resourceLogs: Array<{ scopeLogs: Array<{ logRecords?: JsonLogRecord[] }> }> };

function attribute(record: JsonLogRecord, key: string): unknown {
  const value = record.attributes?.find((entry) => entry.key === key)?.value;
  if (value?.arrayValue !== undefined) return (value.arrayValue.values ?? []).map((item) => item.stringValue);
  return value?.stringValue ?? (value?.intValue === undefined ? undefined : Number(value.intValue)) ?? value?.doubleValue;
}

/** A Collector with a logs pipeline to a fresh topic, and the SDK's logs signal exporting to it; the sink the CLI would pass. */
async function evaluationLogsThroughCollector() {
  const logsTopic = await useTopic({ prefix: 'evaluation-rescores' });
  const collector = await startCollector({ brokers: testBrokers(), topic: `${logsTopic}-traces`, encoding: 'otlp_proto', logs: { topic: logsTopic, encoding: 'otlp_json' } });
  onTestFinished(() => collector.stop());
  // As `scorestream start` is run: the SDK reads its exporters' settings from process.env.
  const environment = { OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint, OTEL_LOGS_EXPORTER: 'otlp', OTEL_TRACES_EXPORTER: 'none', OTEL_METRICS_EXPORTER: 'none', OTEL_BLRP_SCHEDULE_DELAY: '100' };
  for (const [name, value] of Object.entries(environment)) vi.stubEnv(name, value);
  telemetry = await startTelemetry(process.env, { logger: pino({ level: 'silent' }) });
  const options = evaluationLogOptions(telemetry, {});
  expect(options.evaluationLogs).toBeDefined();
  /** The log records on the topic once `done` holds for them (each Collector batch is a message). */
  const logRecords = async (done: (records: JsonLogRecord[]) => boolean): Promise<JsonLogRecord[]> => {
    const deadline = Date.now() + 60_000;
    for (let count = 1; ; count += 1) {
      const messages = await readMessages(logsTopic, { count, timeoutMs: Math.max(1_000, deadline - Date.now()) });
      const records = messages.flatMap((message) => (JSON.parse(message.value!.toString('utf8')) as JsonLogs).resourceLogs.flatMap((resource) => resource.scopeLogs.flatMap((scope) => scope.logRecords ?? [])));
      if (done(records)) return records;
      if (Date.now() > deadline) throw new Error(`log records never matched; got ${JSON.stringify(records.map((record) => record.attributes))}`);
      await delay(200);
    }
  };
  return { options, logRecords };
}

describe('evaluation log records written after the agent span ended', () => {
  it("a resumed thread's new version: on the last turn's agent span, naming the version it supersedes and every turn", { timeout: 180_000 }, async () => {
    const { options, logRecords } = await evaluationLogsThroughCollector();
    const topics = await useThreadServiceTopics(2);
    await produceRaw(topics.runs, [turn('t-log', 1), turn('t-log', 2)]);
    await startTestService({ topics, scorers: threadBindings(1_000) }, options);
    const [v1] = (await threadScores(topics.results, (found) => found.some((score) => score.scorerId === 'turn-count'))).filter((score) => score.scorerId === 'turn-count');
    await produceRaw(topics.runs, [turn('t-log', 3)]);
    const both = (await threadScores(topics.results, (found) => found.filter((score) => score.scorerId === 'turn-count').length >= 2)).filter((score) => score.scorerId === 'turn-count');
    const v2 = both.find((score) => score.thread.version === 2)!;

    const isVersion = (record: JsonLogRecord, score: ScoreRecord) => attribute(record, 'scorestream.score_id') === score.scoreId;
    const records = await logRecords((all) => all.some((record) => isVersion(record, v1!)) && all.some((record) => isVersion(record, v2)));
    const first = records.find((record) => isVersion(record, v1!))!;
    const second = records.find((record) => isVersion(record, v2))!;
    // Each version on its last turn's agent span.
    expect([first.traceId, first.spanId]).toEqual([traceFor('t-log-run-2').traceId, traceFor('t-log-run-2').spanId]);
    expect([second.traceId, second.spanId]).toEqual([traceFor('t-log-run-3').traceId, traceFor('t-log-run-3').spanId]);
    expect(second.eventName).toBe('gen_ai.evaluation.result');
    expect(attribute(second, 'gen_ai.evaluation.name')).toBe('turn-count');
    expect(attribute(second, 'gen_ai.evaluation.score.value')).toBe(3);
    expect(attribute(second, 'scorestream.thread.version')).toBe(2);
    expect(attribute(second, 'scorestream.thread.supersedes')).toBe(v1!.thread.versionId);
    expect(attribute(second, 'scorestream.thread.run_ids')).toEqual(['t-log-run-1', 't-log-run-2', 't-log-run-3']);
    expect(attribute(first, 'scorestream.thread.supersedes')).toBeUndefined();
    // Timestamped when scored, after the turns' own time.
    expect(BigInt(second.timeUnixNano!)).toBe(BigInt(Date.parse(v2.scoredAt)) * 1_000_000n);
  });

  it('a re-score asked for by a thumbs-down: on the run\'s agent span, naming the score it supersedes and the feedback', { timeout: 180_000 }, async () => {
    const { options, logRecords } = await evaluationLogsThroughCollector();
    const topics = await useServiceTopics(1);
    const [rescore, feedback, agreements] = await Promise.all([useTopic({ prefix: 'rescore' }), useTopic({ prefix: 'feedback' }), useTopic({ prefix: 'agreements', config: { 'cleanup.policy': 'compact' } })]);
    await useTopic({ name: `${feedback}-dlq` });
    const passing = createScorer({ id: 'passing', description: 'passes every answer' }).generateScore(() => 0.9);
    await startTestService({ topics: { ...topics, rescore }, retries: { enabled: false }, scorers: [{ scorer: passing, version: '1', rescoreOn: ['thumbs-down'] }] }, options);
    const join = await startAgreementJoin({ edge: testEdge('scorestream-test-agreement'), resultsTopic: topics.results, feedbackTopic: feedback, agreementsTopic: agreements, rescoreTopic: rescore, windowMs: 3_600_000, ttlMs: 600_000, flushIntervalMs: 100 });
    onTestFinished(() => join.stop());

    await produceRaw(topics.runs, [{ key: 'fb-run', value: JSON.stringify(testRun({ runId: 'fb-run' })), headers: { traceparent: traceFor('fb-run').traceparent } }]);
    const deadline = Date.now() + 60_000;
    while (join.counters.scoresRead < 1) {
      if (Date.now() > deadline) throw new Error('the join never read the score');
      await delay(50);
    }
    const thumbsDown: FeedbackRecord = { schemaVersion: 1, feedbackId: 'fb-log-1', target: { type: 'run', runId: 'fb-run' }, source: 'end_user', submitter: { id: 'user-7' }, name: 'thumbs', value: false, submittedAt: new Date().toISOString() };
    await produceRaw(feedback, [{ key: 'fb-run', value: JSON.stringify(thumbsDown) }]);
    const records = await readUntil<ScoreRecord>(topics.results, (seen) => seen.some((record) => record.rescore !== undefined), 60_000);
    const original = records.find((record) => record.rescore === undefined)!;
    const rescored = records.find((record) => record.rescore !== undefined)!;

    const logs = await logRecords((all) => all.some((record) => attribute(record, 'scorestream.score_id') === rescored.scoreId));
    const log = logs.find((record) => attribute(record, 'scorestream.score_id') === rescored.scoreId)!;
    expect([log.traceId, log.spanId]).toEqual([traceFor('fb-run').traceId, traceFor('fb-run').spanId]);
    expect(attribute(log, 'scorestream.supersedes')).toBe(original.scoreId);
    expect(attribute(log, 'scorestream.rescore.feedback_id')).toBe('fb-log-1');
    expect(attribute(log, 'gen_ai.evaluation.score.value')).toBe(0.9);
    // The pair's own score came first, on the same span, superseding nothing.
    const own = logs.find((record) => attribute(record, 'scorestream.score_id') === original.scoreId);
    expect(own?.spanId).toBe(traceFor('fb-run').spanId);
    expect(own === undefined ? undefined : attribute(own, 'scorestream.supersedes')).toBeUndefined();
  });
});
