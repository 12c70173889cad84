// OTLP input end to end through the real parts: an AI SDK app with @ai-sdk/otel telemetry and the
// OTel SDK exporting OTLP/HTTP to the project's OpenTelemetry Collector (built from the Go module
// proxy, local/collector/), whose kafka exporter writes the spans to the runs topic; the service in
// `otlp` mode assembles and scores each run. For both encodings, with and without
// partition_traces_by_id: one record per run whose trace.parentSpanId is the agent span, a
// not_an_agent_trace decision for the trace without an agent, and every offset committed.
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { DecisionRecord } from '../../../src/kit/contracts/decision-record.ts';
import { parseScoreRecord } from '../../../src/kit/contracts/parse.ts';
import type { ScoreRecord } from '../../../src/kit/contracts/score-record.ts';
import { ensureCollectorBinary, startCollector } from '../../../local/collector/index.ts';
import { answerLengthScorer } from '../../fixtures/scorers.ts';
import { readMessages, testBrokers, uniqueGroupId } from '../../helpers/kafka.ts';
import { highWatermarks } from '../../helpers/read-all.ts';
import { recordPlainTrace, runWeatherAgent, spanRecorder } from '../../helpers/otlp-traces.ts';
import { committedTotal, readUntil, startTestService, useServiceTopics } from '../../helpers/service.ts';

beforeAll(async () => {
  await ensureCollectorBinary({ onBuild: (message) => process.stderr.write(`${message}\n`) });
}, 20 * 60_000);

const cases = [
  { encoding: 'otlp_proto', partitionTracesById: true },
  { encoding: 'otlp_proto', partitionTracesById: false },
  { encoding: 'otlp_json', partitionTracesById: true },
  { encoding: 'otlp_json', partitionTracesById: false },
] as const;

describe('OTLP input through a real OpenTelemetry Collector', () => {
  for (const { encoding, partitionTracesById } of cases) {
    it(`scores every agent run of an instrumented AI SDK app (${encoding}, partition_traces_by_id ${partitionTracesById})`, async () => {
      const topics = await useServiceTopics(3);
      const collector = await startCollector({ brokers: testBrokers(), topic: topics.runs, encoding, partitionTracesById });
      onTestFinished(() => collector.stop());

      const exporter = encoding === 'otlp_proto' ? new ProtoTraceExporter({ url: collector.tracesUrl }) : new JsonTraceExporter({ url: collector.tracesUrl });
      const app = spanRecorder({ 'service.name': 'weather-app', 'tenant.id': 'acme' }, [new BatchSpanProcessor({ exporter, scheduledDelayMillis: 100 })]);
      onTestFinished(() => app.shutdown());

      const groupId = uniqueGroupId('otlp');
      const service = await startTestService({
        topics,
        groupId,
        scorers: [{ scorer: answerLengthScorer, version: '1' }],
        input: { format: 'otlp', encoding, gracePeriodMs: 500 },
      });

      await runWeatherAgent({ telemetry: 'semconv', tracer: app.tracer, agentName: 'weather-agent' });
      await runWeatherAgent({ telemetry: 'semconv', tracer: app.tracer, agentName: 'second-agent', toolFails: true });
      await runWeatherAgent({ telemetry: 'legacy', tracer: app.tracer, agentName: 'legacy-agent' });
      recordPlainTrace(app.tracer);
      await app.flush();
      const agentSpans = app.spans().filter((span) => span.attributes['gen_ai.operation.name'] === 'invoke_agent' || span.name === 'ai.generateText');
      expect(agentSpans).toHaveLength(3);
      const plainTraceId = app.spans().find((span) => span.name === 'GET /health')!.spanContext().traceId;

      const records = await readUntil<ScoreRecord>(topics.results, (found) => found.length >= 3);
      expect(records).toHaveLength(3);
      for (const record of records) expect(parseScoreRecord(record).success).toBe(true);
      for (const agent of agentSpans) {
        const { traceId, spanId } = agent.spanContext();
        const record = records.find((candidate) => candidate.trace?.traceId === traceId)!;
        expect(record, `a record for trace ${traceId}`).toBeDefined();
        expect(record.trace?.parentSpanId).toBe(spanId);
        expect(record.runId).toBe(`${traceId}-${spanId}`);
        expect(record).toMatchObject({ scorerId: 'answer-length', status: 'scored', source: { topic: topics.runs } });
      }
      expect(records.map((record) => record.entity.id).sort()).toEqual(['legacy-agent', 'second-agent', 'weather-agent']);
      expect(records.find((record) => record.entity.id === 'weather-agent')!.score).toBeCloseTo('It is sunny in Paris.'.length / 100);

      const decisions = await readUntil<DecisionRecord>(topics.decisions, (found) => found.some((decision) => decision.runId === plainTraceId));
      expect(decisions.find((decision) => decision.runId === plainTraceId)).toMatchObject({ reason: 'not_an_agent_trace', scorerId: 'answer-length', trace: { traceId: plainTraceId } });

      // Every message the Collector wrote is committed once its traces were scored or decided.
      const written = [...(await highWatermarks(topics.runs)).values()].reduce((sum, offset) => sum + offset, 0);
      expect(written).toBeGreaterThan(0);
      const keys = (await readMessages(topics.runs, { count: written })).map((message) => message.key?.toString('utf8') ?? null);
      if (partitionTracesById) expect(keys.every((key) => key !== null && /^[0-9a-f]{32}$/.test(key))).toBe(true);
      else expect(keys.every((key) => key === null)).toBe(true);
      await expect.poll(() => committedTotal(groupId, topics.runs), { timeout: 20_000 }).toBe(written);
      expect(service.otlp).toMatchObject({ runsAssembled: 3, lateSpans: 0 });
    });
  }
});
