// Content on the logs signal through the real parts (docs/otlp.md): an app whose spans carry no
// content, its model calls' messages sent as GenAI log-based events — both signals exported by the
// OpenTelemetry JS SDK over OTLP/HTTP to the project's Collector, whose kafka exporter writes spans
// and log records to the same runs topic of three partitions, keyed by trace id
// (partition_traces_by_id, partition_logs_by_trace_id). The service in `otlp` mode joins each
// trace's records to its spans: the run is scored with the question, the answer and the tool call
// the records hold, in both delivery modes; a record whose trace never arrives is counted and
// dropped, no decision made for it; the app's ordinary log lines are dropped as read; every
// message is committed.
import { OTLPLogExporter } from '@opentelemetry/exporter-logs-otlp-proto';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchLogRecordProcessor, LoggerProvider } from '@opentelemetry/sdk-logs';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace';
import { beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import type { DecisionRecord } from '../../../src/kit/contracts/decision-record.ts';
import type { ScoreRecord } from '../../../src/kit/contracts/score-record.ts';
import { createScorer } from '../../../src/kit/scorer/create-scorer.ts';
import { getUserMessageFromRunInput } from '../../../src/kit/utils/run-input.ts';
import { getAssistantMessageFromRunOutput } from '../../../src/kit/utils/run-output.ts';
import { ensureCollectorBinary, startCollector } from '../../../local/collector/index.ts';
import { testBrokers, uniqueGroupId } from '../../helpers/kafka.ts';
import { highWatermarks, readAll } from '../../helpers/read-all.ts';
import { EVENT_ANSWER, EVENT_QUESTION, recordOrphanEvent, recordRunWithEventContent } from '../../helpers/otlp-log-events.ts';
import { spanRecorder } from '../../helpers/otlp-traces.ts';
import { committedTotal, readUntil, startTestService, useServiceTopics } from '../../helpers/service.ts';

beforeAll(async () => {
  await ensureCollectorBinary({ onBuild: (message) => process.stderr.write(`${message}\n`) });
}, 20 * 60_000);

/** A code scorer that passes only when the question, the answer and the tool call reached it. */
const contentCheck = createScorer({ id: 'content-check', description: 'question, answer and tool call arrived' }).generateScore(({ run }) => {
  const question = getUserMessageFromRunInput(run.input);
  const answer = getAssistantMessageFromRunOutput(run.output);
  const tools = run.output.flatMap((message: { content: { parts: Array<{ type: string }> } }) => message.content.parts).filter((part: { type: string }) => part.type === 'tool-invocation');
  return question === EVENT_QUESTION && answer === EVENT_ANSWER && tools.length === 1 ? 1 : 0;
});

describe('content on the logs signal through a real Collector', () => {
  for (const delivery of ['at-least-once', 'exactly-once'] as const) {
    it(`joins each trace's log records to its spans and scores the run (${delivery})`, async () => {
      const topics = await useServiceTopics(3);
      const collector = await startCollector({ brokers: testBrokers(), topic: topics.runs, encoding: 'otlp_proto', partitionTracesById: true, logs: { topic: topics.runs, encoding: 'otlp_proto', partitionByTraceId: true } });
      onTestFinished(() => collector.stop());
      const app = spanRecorder({ 'service.name': 'events-app' }, [new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: collector.tracesUrl }), scheduledDelayMillis: 100 })]);
      onTestFinished(() => app.shutdown());
      const loggers = new LoggerProvider({ resource: resourceFromAttributes({ 'service.name': 'events-app' }), processors: [new BatchLogRecordProcessor({ exporter: new OTLPLogExporter({ url: `${collector.endpoint}/v1/logs` }), scheduledDelayMillis: 100 })] });
      onTestFinished(() => loggers.shutdown());

      const groupId = uniqueGroupId('otlp-logs');
      const service = await startTestService({ topics, groupId, delivery, scorers: [{ scorer: contentCheck }], input: { format: 'otlp', encoding: 'otlp_proto', gracePeriodMs: 1_500, idleTimeoutMs: 3_000 } });
      const logger = loggers.getLogger('genai');
      const runs = [recordRunWithEventContent(app.tracer, logger, 'first'), recordRunWithEventContent(app.tracer, logger, 'second'), recordRunWithEventContent(app.tracer, logger, 'third')];
      const orphanTrace = recordOrphanEvent(app.tracer, logger);
      await app.flush();
      await loggers.forceFlush();

      const records = await readUntil<ScoreRecord>(topics.results, (found) => found.length >= runs.length);
      expect(records).toHaveLength(runs.length);
      for (const { traceId, spanId } of runs) {
        const record = records.find((candidate) => candidate.trace?.traceId === traceId);
        expect(record, `the run of trace ${traceId}`).toMatchObject({ status: 'scored', score: 1, trace: { parentSpanId: spanId } });
        expect(record?.missing).toBeUndefined();
      }
      await vi.waitFor(() => expect(service.otlp?.orphanLogRecords).toBe(1), { timeout: 20_000 });
      expect(service.otlp?.logRecords).toBe(runs.length * 2 + 1);
      // Each run's ordinary app log line (no gen_ai.* content) went no further than the read.
      expect(service.otlp?.ignoredLogRecords).toBe(runs.length);
      // No decision for the trace that never came: it was log records only.
      const written = [...(await highWatermarks(topics.runs)).values()].reduce((sum, offset) => sum + offset, 0);
      await vi.waitFor(async () => expect(await committedTotal(groupId, topics.runs)).toBe(written), { timeout: 20_000 });
      const decisions = await readAll<DecisionRecord>(topics.decisions, { isolation: 'read_committed' });
      expect(decisions.filter((decision) => decision.runId === orphanTrace || decision.trace?.traceId === orphanTrace)).toEqual([]);
    }, 120_000);
  }
});
