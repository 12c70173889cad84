// The exporter wiring from environment variables alone: `scorestream start` runs as a child process
// with OTEL_EXPORTER_OTLP_ENDPOINT pointing at a small OTLP/HTTP receiver in this test, and the
// receiver must get the score spans (in the run's trace) and the service's metrics — as JSON
// (decoded and checked field by field) and as protobuf, the default (checked for the span name and
// the raw trace-id bytes, since protobuf stores both verbatim).
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { ScoreRecord } from '../../../src/index.ts';
import { uniqueGroupId } from '../../helpers/kafka.ts';
import { traceFor, testRun } from '../../helpers/runs.ts';
import { produceRaw, readRecords, useServiceTopics } from '../../helpers/service.ts';
import { spawnService, waitForLog } from '../../helpers/service-process.ts';

type Received = { path: string; headers: IncomingHttpHeaders; body: Buffer };

async function startReceiver(port = 0): Promise<{ endpoint: string; received: Received[] }> {
  const received: Received[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks) });
      const json = String(request.headers['content-type']).includes('json');
      response.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' });
      response.end(json ? '{}' : undefined);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

async function waitFor<T>(what: string, probe: () => T | undefined, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

type JsonAttribute = { key: string; value: { stringValue?: string; intValue?: string | number; doubleValue?: number; boolValue?: boolean } };
type JsonSpan = { traceId: string; spanId: string; parentSpanId?: string; name: string; attributes?: JsonAttribute[] };
type JsonTraces = { resourceSpans: Array<{ resource?: { attributes?: JsonAttribute[] }; scopeSpans: Array<{ spans: JsonSpan[] }> }> };
type JsonMetrics = { resourceMetrics: Array<{ scopeMetrics: Array<{ metrics: Array<{ name: string }> }> }> };

/** OTLP/JSON ids are hex in the JS exporter; accept base64 (the proto3 JSON default) too. */
const hexId = (id: string) => (/^[0-9a-f]+$/.test(id) ? id : Buffer.from(id, 'base64').toString('hex'));
const attribute = (attributes: JsonAttribute[] | undefined, key: string) => {
  const value = attributes?.find((entry) => entry.key === key)?.value;
  return value?.stringValue ?? value?.intValue ?? value?.doubleValue ?? value?.boolValue;
};

async function runServiceAgainst(endpoint: string, env: Record<string, string>) {
  const topics = await useServiceTopics();
  const runId = `otlp-${env.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'default'}`.replace(/[^a-z0-9-]/g, '-');
  const service = spawnService({
    topics,
    groupId: uniqueGroupId('otlp'),
    env: {
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_METRICS_EXPORTER: 'otlp',
      OTEL_SERVICE_NAME: 'scorestream-otlp-test',
      OTEL_BSP_SCHEDULE_DELAY: '200',
      OTEL_METRIC_EXPORT_INTERVAL: '500',
      OTEL_METRIC_EXPORT_TIMEOUT: '500',
      FIXTURE_JUDGE_DELAY_MS: '10',
      ...env,
    },
  });
  await waitForLog(service, /scorestream is consuming/);
  await produceRaw(topics.runs, [{ key: runId, value: JSON.stringify(testRun({ runId })), headers: { traceparent: traceFor(runId).traceparent } }]);
  const records = await readRecords<ScoreRecord>(topics.results, 2);
  return { service, runId, records };
}

type JsonLogRecord = { eventName?: string; traceId?: string; spanId?: string; timeUnixNano?: string | number; attributes?: JsonAttribute[] };
type JsonLogs = { resourceLogs: Array<{ resource?: { attributes?: JsonAttribute[] }; scopeLogs: Array<{ logRecords: JsonLogRecord[] }> }> };

/** Every log record the receiver took on /v1/logs (OTLP/JSON). */
function logRecordsAt(receiver: { received: Array<{ path: string; body: Buffer }> }): JsonLogRecord[] {
  return receiver.received
    .filter((request) => request.path === '/v1/logs')
    .flatMap((request) => (JSON.parse(request.body.toString('utf8')) as JsonLogs).resourceLogs)
    .flatMap((resource) => resource.scopeLogs.flatMap((scope) => scope.logRecords));
}

/** A port nothing listens on (for now). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('OTLP export configured from OTEL_* variables', () => {
  it('says once that no receiver listens, keeps scoring, and exports again once one does', async () => {
    const port = await freePort();
    const topics = await useServiceTopics();
    const service = spawnService({
      topics,
      groupId: uniqueGroupId('otlp-away'),
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`, OTEL_TRACES_EXPORTER: 'otlp', OTEL_METRICS_EXPORTER: 'none', OTEL_BSP_SCHEDULE_DELAY: '100', FIXTURE_JUDGE_DELAY_MS: '10' },
    });
    await waitForLog(service, /scorestream is consuming/);
    let produced = 0;
    const produce = async (count: number) => {
      const runIds = Array.from({ length: count }, () => `away-${produced++}`);
      await produceRaw(topics.runs, runIds.map((runId) => ({ key: runId, value: JSON.stringify(testRun({ runId })), headers: { traceparent: traceFor(runId).traceparent } })));
    };
    // Scored all the same; the first failed export (after the exporter's own retries, up to its
    // 10 s timeout) is said, and the batches after it are not.
    await produce(5);
    await readRecords<ScoreRecord>(topics.results, produced * 2);
    await waitForLog(service, /no OTLP receiver takes spans/, 30_000);
    for (let round = 0; round < 4; round += 1) {
      await produce(5);
      await readRecords<ScoreRecord>(topics.results, produced * 2);
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    const away = service.output.filter((line) => line.includes('no OTLP receiver takes spans'));
    expect(away).toHaveLength(1);
    expect(JSON.parse(away[0]!)).toMatchObject({ level: 40, endpoint: `http://127.0.0.1:${port}/v1/traces` });
    // No other word from the SDK about the failed exports.
    expect(service.output.filter((line) => line.includes('"component":"opentelemetry"') && !line.includes('no OTLP receiver takes spans'))).toEqual([]);

    // A receiver comes up there: within a probe interval (10 s) spans flow again, and that is said.
    const receiver = await startReceiver(port);
    const deadline = Date.now() + 40_000;
    while (!service.output.some((line) => line.includes('exporting resumed'))) {
      if (Date.now() > deadline) throw new Error(`export did not resume; output:\n${service.output.slice(-20).join('\n')}`);
      await produce(1);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    await produce(1);
    await waitFor('score spans at the receiver', () => receiver.received.find((request) => request.path === '/v1/traces' && request.body.includes('score run')));
    expect(service.output.filter((line) => line.includes('no OTLP receiver takes spans'))).toHaveLength(1);
    service.child.kill('SIGTERM');
    expect((await service.exited).code).toBe(0);
  });

  it('sends score spans in the run trace and the service metrics as OTLP/JSON', async () => {
    const receiver = await startReceiver();
    const { service, runId, records } = await runServiceAgainst(receiver.endpoint, { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' });
    expect(JSON.parse(await waitForLog(service, /OpenTelemetry started/))).toMatchObject({ tracing: true, metrics: true, tracesExporter: 'otlp' });
    const { traceId, spanId } = traceFor(runId);

    const spans = await waitFor('score spans on /v1/traces', () => {
      const all = receiver.received
        .filter((request) => request.path === '/v1/traces')
        .flatMap((request) => (JSON.parse(request.body.toString('utf8')) as JsonTraces).resourceSpans)
        .flatMap((resourceSpans) => resourceSpans.scopeSpans.flatMap((scope) => scope.spans.map((span) => ({ span, resource: resourceSpans.resource }))));
      return all.some(({ span }) => span.name === 'score slow-judge') && all.some(({ span }) => span.name === 'score run') ? all : undefined;
    });
    const scoreSpan = spans.find(({ span }) => span.name === 'score run')!;
    expect(hexId(scoreSpan.span.traceId)).toBe(traceId);
    expect(hexId(scoreSpan.span.parentSpanId!)).toBe(spanId);
    expect(attribute(scoreSpan.span.attributes, 'scorestream.run.id')).toBe(runId);
    expect(attribute(scoreSpan.resource?.attributes, 'service.name')).toBe('scorestream-otlp-test');
    expect(attribute(scoreSpan.resource?.attributes, 'scorestream.origin')).toBe('scorestream');
    const record = records.find((candidate) => candidate.scorerId === 'answer-length')!;
    expect(record.trace).toEqual({ traceId, parentSpanId: spanId, spanId: hexId(scoreSpan.span.spanId) });

    // The fixture's judge runs through the AI SDK: its spans arrive too, marked as the judge's.
    const judgeSpans = spans.filter(({ span }) => attribute(span.attributes, 'scorestream.origin') === 'judge');
    expect(judgeSpans.length).toBeGreaterThan(0);
    for (const { span } of judgeSpans) expect(hexId(span.traceId)).toBe(traceId);
    // Prompts stay off the spans by default.
    expect(receiver.received.some((request) => request.body.includes('Rate this answer'))).toBe(false);

    const metricNames = await waitFor('service metrics on /v1/metrics', () => {
      const names = new Set(
        receiver.received
          .filter((request) => request.path === '/v1/metrics')
          .flatMap((request) => (JSON.parse(request.body.toString('utf8')) as JsonMetrics).resourceMetrics)
          .flatMap((resource) => resource.scopeMetrics.flatMap((scope) => scope.metrics.map((metric) => metric.name))),
      );
      return names.has('scorestream.records') && names.has('scorestream.event_to_result.duration') ? names : undefined;
    });
    expect(metricNames).toContain('scorestream.runs.consumed');
    // The logs signal is off unless OTEL_LOGS_EXPORTER names an exporter.
    expect(receiver.received.some((request) => request.path === '/v1/logs')).toBe(false);

    service.child.kill('SIGTERM');
    expect(await service.exited).toEqual({ code: 0, signal: null });
    // Diagnostics (if any) went into the JSON log: every line the service wrote parses.
    for (const line of service.output) expect(() => JSON.parse(line), line).not.toThrow();
  });

  it('sends every score as an evaluation log record on the agent span with OTEL_LOGS_EXPORTER=otlp', async () => {
    const receiver = await startReceiver();
    const { service, runId, records } = await runServiceAgainst(receiver.endpoint, {
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_LOGS_EXPORTER: 'otlp',
      OTEL_TRACES_EXPORTER: 'none',
      OTEL_METRICS_EXPORTER: 'none',
      OTEL_BLRP_SCHEDULE_DELAY: '200',
    });
    expect(JSON.parse(await waitForLog(service, /OpenTelemetry started/))).toMatchObject({ tracing: false, metrics: false, logs: true, logsExporter: 'otlp' });
    const { traceId, spanId } = traceFor(runId);
    const logRecords = await waitFor('two evaluation log records on /v1/logs', () => {
      const all = logRecordsAt(receiver);
      return all.length >= 2 ? all : undefined;
    });
    expect(logRecords).toHaveLength(2);
    for (const record of records) {
      const log = logRecords.find((candidate) => attribute(candidate.attributes, 'scorestream.score_id') === record.scoreId);
      expect(log, record.scorerId).toBeDefined();
      expect(log!.eventName).toBe('gen_ai.evaluation.result');
      // On the agent run's span, which the run's traceparent named: the score sits on the agent's trace.
      expect(hexId(log!.traceId!)).toBe(traceId);
      expect(hexId(log!.spanId!)).toBe(spanId);
      expect(attribute(log!.attributes, 'gen_ai.evaluation.name')).toBe(record.scorerId);
      expect(attribute(log!.attributes, 'scorestream.run_id')).toBe(runId);
      expect(attribute(log!.attributes, 'scorestream.status')).toBe(record.status);
      if (record.status === 'scored') expect(attribute(log!.attributes, 'gen_ai.evaluation.score.value')).toBe(record.score);
      expect(BigInt(log!.timeUnixNano!)).toBe(BigInt(Date.parse(record.scoredAt)) * 1_000_000n);
    }
    service.child.kill('SIGTERM');
    expect((await service.exited).code).toBe(0);
  });

  it('with SCORESTREAM_EVALUATION_LOGS=instead-of-spans shows the code scorer only as its log record: no `score run` span, no span id on its record; the judge keeps its span', async () => {
    const receiver = await startReceiver();
    const { service, runId, records } = await runServiceAgainst(receiver.endpoint, {
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_LOGS_EXPORTER: 'otlp',
      OTEL_BLRP_SCHEDULE_DELAY: '200',
      SCORESTREAM_EVALUATION_LOGS: 'instead-of-spans',
    });
    const { traceId, spanId } = traceFor(runId);
    const spanNames = await waitFor('the judge score span on /v1/traces', () => {
      const names = receiver.received
        .filter((request) => request.path === '/v1/traces')
        .flatMap((request) => (JSON.parse(request.body.toString('utf8')) as JsonTraces).resourceSpans)
        .flatMap((resourceSpans) => resourceSpans.scopeSpans.flatMap((scope) => scope.spans.map((span) => span.name)));
      return names.includes('score slow-judge') ? names : undefined;
    });
    expect(spanNames.filter((name) => name === 'score run' || name === 'score answer-length')).toEqual([]);
    expect(records.find((record) => record.scorerId === 'answer-length')!.trace).toEqual({ traceId, parentSpanId: spanId });
    expect(records.find((record) => record.scorerId === 'slow-judge')!.trace?.spanId).toEqual(expect.any(String));
    const lengthLog = await waitFor('the code scorer\'s log record', () => logRecordsAt(receiver).find((log) => attribute(log.attributes, 'gen_ai.evaluation.name') === 'answer-length'));
    expect(hexId(lengthLog.spanId!)).toBe(spanId);
    service.child.kill('SIGTERM');
    expect((await service.exited).code).toBe(0);
  });

  it('refuses to start with SCORESTREAM_EVALUATION_LOGS=instead-of-spans and no logs signal, saying what to set (exit 2)', async () => {
    const topics = await useServiceTopics();
    const service = spawnService({ topics, groupId: uniqueGroupId('otlp-refused'), env: { OTEL_TRACES_EXPORTER: 'none', OTEL_METRICS_EXPORTER: 'none', SCORESTREAM_EVALUATION_LOGS: 'instead-of-spans' } });
    expect((await service.exited).code).toBe(2);
    expect([...service.output, ...service.errorOutput].join('\n')).toMatch(/SCORESTREAM_EVALUATION_LOGS: instead-of-spans asks for evaluation log records, but the logs signal is off: set OTEL_LOGS_EXPORTER=otlp/);
  });

  it('sends protobuf by default (http/protobuf), carrying the span name and the run trace id; prompts with SCORESTREAM_TRACE_RECORD_INPUTS', async () => {
    const receiver = await startReceiver();
    const { service, runId } = await runServiceAgainst(receiver.endpoint, { SCORESTREAM_TRACE_RECORD_INPUTS: 'true' });
    const traceIdBytes = Buffer.from(traceFor(runId).traceId, 'hex');
    const request = await waitFor('a protobuf export with the score span', () =>
      receiver.received.find((candidate) => candidate.path === '/v1/traces' && candidate.body.includes('score run') && candidate.body.includes(traceIdBytes)),
    );
    expect(request.headers['content-type']).toBe('application/x-protobuf');
    await waitFor('the judge prompt on a span', () => receiver.received.find((candidate) => candidate.path === '/v1/traces' && candidate.body.includes('Rate this answer from 0 to 1')));
    service.child.kill('SIGTERM');
    expect((await service.exited).code).toBe(0);
  });

  it('exports nothing and starts no SDK when every exporter is none', async () => {
    const receiver = await startReceiver();
    const { service } = await runServiceAgainst(receiver.endpoint, { OTEL_TRACES_EXPORTER: 'none', OTEL_METRICS_EXPORTER: 'none' });
    expect(JSON.parse(await waitForLog(service, /OpenTelemetry is off/))).toMatchObject({ tracing: false, metrics: false });
    service.child.kill('SIGTERM');
    expect((await service.exited).code).toBe(0);
    expect(receiver.received).toEqual([]);
  });
});
