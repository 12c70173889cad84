// Real agent frameworks, as shipped, attach through the real path: each framework's own
// OpenTelemetry instrumentation (installed from PyPI / npm, cached: local/agents/) exports OTLP/HTTP
// to the project's Collector, whose kafka exporter (otlp_proto, partition_traces_by_id, and the logs
// pipeline to the same topic with partition_logs_by_trace_id) writes the runs topic of a real broker, and the service in input.format 'otlp' scores each run with a code
// scorer that checks the question, the answer and the tool call reached it — under the run's own
// span. The tool-calling agents run against the scripted OpenAI-compatible model server.
// `scorestream otlp inspect --topic` reads the same topic back.
import { afterEach, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { run as otlpCommand } from '../../../cli/commands/otlp.ts';
import type { ScoreRecord } from '../../../src/kit/contracts/score-record.ts';
import { createScorer } from '../../../src/kit/scorer/create-scorer.ts';
import { getUserMessageFromRunInput } from '../../../src/kit/utils/run-input.ts';
import { getAssistantMessageFromRunOutput } from '../../../src/kit/utils/run-output.ts';
import { extractToolCalls } from '../../../src/kit/utils/tool-calls.ts';
import { ensureCollectorBinary, startCollector } from '../../../local/collector/index.ts';
import { ensureFrameworkEnv, frameworkAgent, LIVE_TEST_FRAMEWORKS, runFrameworkAgent, SCRIPTED_ANSWER, startScriptedModelServer } from '../../../local/agents/index.ts';
import { testBrokers, uniqueGroupId } from '../../helpers/kafka.ts';
import { readUntil, startTestService, useServiceTopics } from '../../helpers/service.ts';

const QUESTION = 'What is the weather in Paris?';

/** 1 when the question, the answer and the get_weather call (arguments and result) all reached the scorer; else 0, saying what did not. */
const reachedScorer = createScorer({ id: 'question-answer-tool', description: 'The run carries the question, the answer and the tool call', type: 'agent' })
  .preprocess(({ run }) => {
    const calls = extractToolCalls(run.output).toolCallInfos;
    const invocation = (run.output as Array<{ content: { parts: Array<{ type: string; toolInvocation?: { toolName: string; args: unknown; result?: unknown } }> } }>)
      .flatMap((message) => message.content.parts)
      .find((part) => part.type === 'tool-invocation')?.toolInvocation;
    return {
      question: getUserMessageFromRunInput(run.input) === QUESTION,
      answer: getAssistantMessageFromRunOutput(run.output)?.trim() === SCRIPTED_ANSWER,
      tool: calls.length === 1 && /^(?:\w+-)?get_?weather$/i.test(calls[0]!.toolName) && JSON.stringify(invocation?.args) === '{"city":"Paris"}' && String(invocation?.result).includes('sunny, 21°C in Paris'),
    };
  })
  .generateScore(({ results }) => (results.preprocessStepResult.question && results.preprocessStepResult.answer && results.preprocessStepResult.tool ? 1 : 0))
  .generateReason(({ results }) => `reached: ${Object.entries(results.preprocessStepResult).map(([part, ok]) => `${part} ${ok ? 'yes' : 'NO'}`).join(', ')}`);

const EXPECTED_SPAN: Record<(typeof LIVE_TEST_FRAMEWORKS)[number], { span: string; rule: string }> = {
  'openai-agents-python': { span: 'Agent workflow', rule: 'agent_span' },
  'strands-python': { span: 'invoke_agent Strands Agents', rule: 'agent_span' },
  'langchain-js': { span: 'LangGraph', rule: 'root_span' },
  'smolagents-python': { span: 'weather_agent.run', rule: 'agent_span' },
  'autogen-python': { span: 'invoke_agent weather_agent', rule: 'agent_span' },
  // Its content only in log records: the Collector's logs pipeline writes them to the same topic.
  'openai-v2-events-python': { span: 'answer_question', rule: 'root_span' },
  // Its messages as per-message log records with JSON-string bodies; its tool plugin-qualified.
  'semantic-kernel-python': { span: 'invoke_agent WeatherAgent', rule: 'agent_span' },
  // Its messages and system instructions as structured attributes of its log records.
  'google-adk-content-python': { span: 'invoke_agent weather_agent', rule: 'agent_span' },
};

beforeAll(async () => {
  const onInstall = (message: string) => process.stderr.write(`${message}\n`);
  await ensureCollectorBinary({ onBuild: onInstall });
  for (const id of LIVE_TEST_FRAMEWORKS) await ensureFrameworkEnv(frameworkAgent(id), { onInstall });
}, 30 * 60_000);

afterEach(() => vi.restoreAllMocks());

describe('real agent frameworks through the Collector and Kafka', () => {
  for (const id of LIVE_TEST_FRAMEWORKS) {
    it(`${id}: scored once under its ${EXPECTED_SPAN[id].rule === 'root_span' ? 'root' : 'agent'} span, with the question, the answer and the tool call`, async () => {
      const framework = frameworkAgent(id);
      const topics = await useServiceTopics(2);
      // Both pipelines, to the same topic, keyed by trace id (docs/otlp.md, "Content on the logs signal").
      const collector = await startCollector({ brokers: testBrokers(), topic: topics.runs, encoding: 'otlp_proto', partitionTracesById: true, logs: { topic: topics.runs, encoding: 'otlp_proto', partitionByTraceId: true } });
      onTestFinished(() => collector.stop());
      const model = await startScriptedModelServer();
      onTestFinished(() => model.close());
      const service = await startTestService({
        topics,
        groupId: uniqueGroupId('frameworks'),
        scorers: [{ scorer: reachedScorer, version: '1' }],
        input: { format: 'otlp', encoding: 'otlp_proto', gracePeriodMs: 1_000 },
      });

      await runFrameworkAgent(framework, { modelBaseURL: model.baseURL, tracesUrl: collector.tracesUrl });
      const records = await readUntil<ScoreRecord>(topics.results, (found) => found.length >= 1, 60_000);
      expect(records).toHaveLength(1);
      const [record] = records as [ScoreRecord];
      expect(record, JSON.stringify(record.reason)).toMatchObject({ status: 'scored', score: 1, scorerId: 'question-answer-tool', reason: 'reached: question yes, answer yes, tool yes' });
      expect(record.metadata).toMatchObject({ serviceName: id, otel: { spanName: EXPECTED_SPAN[id].span, rule: EXPECTED_SPAN[id].rule } });
      // the score span is a child of the run's span
      expect(record.trace?.parentSpanId).toBe((record.metadata as { otel: { spanId: string } }).otel.spanId);
      expect(record.runId).toBe(`${record.trace?.traceId}-${record.trace?.parentSpanId}`);
      expect(service.otlp).toMatchObject({ runsAssembled: 1, runsMissingContent: 0 });

      // `scorestream otlp inspect --topic` reads the same topic and finds the same run
      const printed: string[] = [];
      vi.spyOn(console, 'log').mockImplementation((line: unknown) => void printed.push(String(line)));
      vi.spyOn(console, 'error').mockImplementation(() => undefined);
      expect(await otlpCommand(['inspect', '--topic', topics.runs, '--brokers', testBrokers().join(',')])).toBe(0);
      const text = printed.join('\n');
      expect(text).toContain(`run ${record.runId}  rule ${EXPECTED_SPAN[id].rule}  span '${EXPECTED_SPAN[id].span}'`);
      expect(text).toContain(`question      "${QUESTION}"`);
    });
  }
});
