// The built-in LLM scorers and a classifier scorer, end to end through the service on the real
// local model and a real broker. A 270M model's verdicts are not checked — only what must hold
// whatever it says: every pair recorded and none failed (not scorable only by the model's answer), step results of the step's shape, finite scores in
// range, usage and evidence recorded, judge spans nested under the agent's trace, and the
// scorer deadline honoured with the model still serving afterwards.
import { trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRunPublisher } from '../../producers/run-publisher.ts';
import { Classifier } from '../../src/kit/classifier/classifier.ts';
import { createClassifierScorer } from '../../src/kit/classifier/classifier-scorer.ts';
import type { ScoreRecord } from '../../src/kit/contracts/score-record.ts';
import { createAnswerRelevancyScorer } from '../../src/kit/scorers/llm/answer-relevancy/index.ts';
import { createBiasScorer } from '../../src/kit/scorers/llm/bias/index.ts';
import { createFaithfulnessScorer } from '../../src/kit/scorers/llm/faithfulness/index.ts';
import { createHallucinationScorer } from '../../src/kit/scorers/llm/hallucination/index.ts';
import { createToxicityScorer } from '../../src/kit/scorers/llm/toxicity/index.ts';
import { createLocalJudgeModels } from '../../local/model/local-judge-models.ts';
import type { LlamaLanguageModel } from '../../local/model/llama-language-model.ts';
import { testBrokers } from '../helpers/kafka.ts';
import { testRun } from '../helpers/runs.ts';
import { readRecords, startTestService, useServiceTopics } from '../helpers/service.ts';
import { descendantsOf, installTestTelemetry, parentSpanId, waitForSpans } from '../helpers/spans.ts';
import type { TelemetryCapture } from '../helpers/spans.ts';
import { ensureLocalModel, localJudgeId, testAnswerBounds } from './local-model.ts';

const models = createLocalJudgeModels(testAnswerBounds);
let capture: TelemetryCapture;

beforeAll(async () => {
  await ensureLocalModel();
  await (models.languageModel(localJudgeId) as LlamaLanguageModel).load();
  capture = await installTestTelemetry();
});
afterAll(async () => {
  await capture?.uninstall();
  await models.dispose();
});

const context = ['Orders ship within 2 business days.', 'Refunds over $500 need a manager’s approval.'];

/** Generous: the point is what holds whatever the model says, not how fast a loaded CI machine is. */
const timeoutMs = 600_000;

function judgeScorers() {
  const tone = new Classifier({
    id: 'tone',
    model: localJudgeId,
    resolveModel: (id) => models.languageModel(id) as never,
    questions: { tone: { type: 'choice', instructions: 'How does the assistant address the customer?', criteria: { warm: 'friendly', neutral: 'matter-of-fact', curt: 'rude' } } },
  });
  return [
    { scorer: createAnswerRelevancyScorer({ model: localJudgeId }), timeoutMs },
    { scorer: createToxicityScorer({ model: localJudgeId }), timeoutMs },
    { scorer: createBiasScorer({ model: localJudgeId }), timeoutMs },
    { scorer: createFaithfulnessScorer({ model: localJudgeId, options: { context } }), timeoutMs },
    { scorer: createHallucinationScorer({ model: localJudgeId, options: { context } }), timeoutMs },
    {
      scorer: createClassifierScorer({ id: 'tone', classifier: tone, question: 'tone', scores: { warm: 1, neutral: 0.6, curt: 0 }, state: ({ run }) => ({ answer: JSON.stringify(run.output).slice(0, 2000) }) }),
      timeoutMs,
    },
  ];
}

describe('the local judge through the service', () => {
  it('records every pair, none failed, with well-formed evidence, inside the agent’s trace', { timeout: 1_500_000 }, async () => {
    const topics = await useServiceTopics();
    await startTestService({ topics, scorers: judgeScorers(), judge: { models, callTimeoutMs: timeoutMs }, concurrency: { runsInFlight: 4, judgeCallsPerModel: 1 } });
    const publisher = createRunPublisher({ brokers: testBrokers(), topic: topics.runs });
    const agent = await trace.getTracer('test-agent').startActiveSpan('agent run', async (span) => {
      await publisher.publish(testRun({ runId: 'local-1', question: 'When will order 4411 arrive?', answer: 'Orders ship within 2 business days, so it should arrive by Friday.' }));
      span.end();
      return span.spanContext();
    });
    await publisher.close();

    const records = await readRecords<ScoreRecord>(topics.results, 6, 1_200_000);
    expect(records.map((record) => record.scorerId).sort()).toEqual(['answer-relevancy', 'bias', 'faithfulness', 'hallucination', 'tone', 'toxicity']);
    for (const record of records) {
      // Never failed. Not scorable only by what the model answered (a step after its judge call:
      // a 270M model may find no claims in an answer that has some), never by the run itself —
      // the run carries a question, an answer and context for every scorer here. Its judge
      // evidence is checked below like a scored record's.
      expect(record.status, `${record.scorerId}: ${JSON.stringify(record.status === 'failed' ? record.error : undefined)}`).not.toBe('failed');
      expect(record.trace).toMatchObject({ traceId: agent.traceId, parentSpanId: agent.spanId });
      if (record.status === 'not_scorable') {
        expect(['analyze', 'generateScore'], `${record.scorerId}: ${record.notScorable.reason}`).toContain(record.notScorable.step);
        continue;
      }
      if (record.status !== 'scored') continue;
      expect(Number.isFinite(record.score) && record.score >= 0 && record.score <= 1).toBe(true);
    }
    // LLM scorers: each judge step's evidence names the local model, its tokens and a success.
    for (const record of records.filter((candidate) => candidate.scorerId !== 'tone')) {
      const executions = Object.values(record.judge ?? {}).flatMap((step) => step.executions);
      expect(executions.length).toBeGreaterThan(0);
      for (const execution of executions) {
        expect(execution).toMatchObject({ status: 'success', judgeModelId: 'gemma3-270m', judgeProvider: 'local' });
        expect(execution.status === 'success' && (execution.usage?.inputTokens ?? 0) > 0 && (execution.usage?.outputTokens ?? 0) > 0).toBe(true);
      }
    }

    // Every scorer's span; a pair retried after a transient failure (a judge call slower than its
    // timeout on a loaded machine) has a span per attempt, each a child of the agent span.
    const scorerSpans = (all: readonly ReadableSpan[]) => new Set(all.filter((span) => span.name.startsWith('score ') && span.attributes['scorestream.run.id'] === 'local-1').map((span) => span.name));
    const spans = await waitForSpans(capture, (all) => scorerSpans(all).size === 6, 60_000);
    for (const scoreSpan of spans.filter((span) => span.name.startsWith('score ') && span.attributes['scorestream.run.id'] === 'local-1')) {
      expect(parentSpanId(scoreSpan)).toBe(agent.spanId);
      const below = descendantsOf(spans, scoreSpan);
      expect(below.some((span) => span.attributes['scorestream.origin'] === 'judge' || span.name.startsWith('classifier'))).toBe(true);
      for (const span of below) expect(span.spanContext().traceId).toBe(agent.traceId);
    }
  });

  it('fails a pair at its scorer deadline and serves the next call', { timeout: 600_000 }, async () => {
    const topics = await useServiceTopics();
    await startTestService({
      topics,
      scorers: [{ scorer: createToxicityScorer({ model: localJudgeId }), timeoutMs: 300 }, { scorer: createAnswerRelevancyScorer({ model: localJudgeId }), timeoutMs }],
      // The deadline under test is the scorer's 300 ms; a judge call may take long on a loaded machine.
      judge: { models, callTimeoutMs: timeoutMs },
      concurrency: { runsInFlight: 2, judgeCallsPerModel: 1 },
      // A pair stopped by its deadline is retryable: with retries on it would wait on the retry
      // topic (10 s, 1 min, 10 min …) instead of being published as failed, which is what this reads.
      retries: { enabled: false },
    });
    const publisher = createRunPublisher({ brokers: testBrokers(), topic: topics.runs });
    await publisher.publish(testRun({ runId: 'local-deadline', answer: 'It ships tomorrow. '.repeat(20) }));
    await publisher.close();
    const records = await readRecords<ScoreRecord>(topics.results, 2, 600_000);
    const byScorer = new Map(records.map((record) => [record.scorerId, record]));
    expect(byScorer.get('toxicity')).toMatchObject({ status: 'failed', error: { message: expect.stringMatching(/did not finish within 300 ms/) } });
    const relevancy = byScorer.get('answer-relevancy');
    expect(relevancy?.status, JSON.stringify(relevancy?.status === 'failed' ? relevancy.error : relevancy?.notScorable)).toBe('scored');
  });
});
