// buildScoreRecord: every outcome becomes a record that passes the wire contract, with a
// deterministic id, the run's identity and evidence, and no score unless it was scored.
import { APICallError } from 'ai';
import { describe, expect, it } from 'vitest';
import { parseScoreRecord } from '../../../../../src/kit/contracts/parse.ts';
import { scoreIdFor } from '../../../../../src/kit/contracts/score-id.ts';
import type { ScoreRecord } from '../../../../../src/kit/contracts/score-record.ts';
import { buildScoreRecord } from '../../../../../src/engine/pipeline/build-score-record.ts';
import type { ScoreRecordContext } from '../../../../../src/engine/pipeline/build-score-record.ts';
import { runScorerToOutcome } from '../../../../../src/engine/pipeline/scorer-outcome.ts';
import type { ScorerOutcome } from '../../../../../src/engine/pipeline/scorer-outcome.ts';
import { buildScorerInput } from '../../../../../src/engine/pipeline/scorer-input.ts';
import { createScorer } from '../../../../../src/kit/scorer/create-scorer.ts';
import { notScorable } from '../../../../../src/kit/scorer/not-scorable.ts';
import { mockJudge, providerError } from '../../../../../src/kit/testing/mock-judge.ts';
import { traceFor } from '../../../../helpers/runs.ts';
import { runFacts, source } from './fixtures.ts';

const facts = runFacts({ runId: 'run-7', trace: true });
const { traceId, spanId } = traceFor('run-7');
const scoreSpanId = '1111222233334444';

function context(outcome: ScorerOutcome, extra: Partial<ScoreRecordContext> = {}): ScoreRecordContext {
  return {
    scorerId: 'answer-quality',
    facts,
    outcome,
    trace: { traceId, parentSpanId: spanId, spanId: scoreSpanId },
    scoredAt: '2026-11-29T12:00:01.250Z',
    durationMs: 37,
    ...extra,
  };
}

/** Builds the record and checks it against the wire contract. */
function validRecord(recordContext: ScoreRecordContext): ScoreRecord {
  const record = buildScoreRecord(recordContext);
  const parsed = parseScoreRecord(JSON.parse(JSON.stringify(record)));
  expect(parsed.success ? [] : parsed.problems).toEqual([]);
  return record;
}

const outcomeOf = (scorer: { id: string; run: (...args: never[]) => unknown }) => runScorerToOutcome(scorer as never, buildScorerInput(facts), { timeoutMs: 10_000 });

describe('buildScoreRecord', () => {
  it('builds a scored record with every field of the contract', async () => {
    const scorer = createScorer({ id: 'answer-quality', description: 'd' })
      .preprocess(() => ({ sentences: 1 }))
      .generateScore(() => 0.9)
      .generateReason(() => 'clear and short');
    const record = validRecord(context(await outcomeOf(scorer), { scorerName: 'Answer quality', scorerVersion: '3', sampling: { rate: 0.5, bucket: 0.25 } }));
    expect(record).toEqual({
      schemaVersion: 1,
      scoreId: scoreIdFor({ runId: 'run-7', scorerId: 'answer-quality', scorerVersion: '3' }),
      status: 'scored',
      score: 0.9,
      reason: 'clear and short',
      runId: 'run-7',
      scorerId: 'answer-quality',
      scorerName: 'Answer quality',
      scorerVersion: '3',
      entity: facts.event.entity,
      metadata: { tenantId: 'acme', environment: 'test', tags: ['integration'] },
      steps: { preprocess: { sentences: 1 } },
      prompts: {},
      trace: { traceId, parentSpanId: spanId, spanId: scoreSpanId },
      source,
      sampling: { rate: 0.5, bucket: 0.25 },
      scoredAt: '2026-11-29T12:00:01.250Z',
      durationMs: 37,
      latency: { scoringMs: 37 },
    });
  });

  it('gives the same run and scorer the same scoreId, and a new version a new one', async () => {
    const scorer = createScorer({ id: 'answer-quality', description: 'd' }).generateScore(() => 1);
    const first = validRecord(context(await outcomeOf(scorer)));
    const again = validRecord(context(await outcomeOf(scorer), { scoredAt: '2026-11-30T00:00:00.000Z', durationMs: 99 }));
    const bumped = validRecord(context(await outcomeOf(scorer), { scorerVersion: '2' }));
    expect(again.scoreId).toBe(first.scoreId);
    expect(first.scoreId).toBe(scoreIdFor({ runId: 'run-7', scorerId: 'answer-quality' }));
    expect(bumped.scoreId).not.toBe(first.scoreId);
  });

  it('leaves out what is absent: name, version, metadata, trace, sampling, reason', async () => {
    const bare = runFacts({ runId: 'run-8' });
    const { metadata: _metadata, ...eventWithoutMetadata } = bare.event;
    const scorer = createScorer({ id: 'answer-quality', description: 'd' }).generateScore(() => 0);
    const outcome = await runScorerToOutcome(scorer, buildScorerInput(bare), { timeoutMs: 1000 });
    const record = validRecord({ scorerId: 'answer-quality', facts: { ...bare, event: eventWithoutMetadata }, outcome, scoredAt: '2026-11-29T12:00:01.250Z', durationMs: 0 });
    expect(Object.keys(record).sort()).toEqual(['durationMs', 'entity', 'latency', 'prompts', 'runId', 'schemaVersion', 'score', 'scoreId', 'scoredAt', 'scorerId', 'source', 'status', 'steps'].sort());
    expect(record).toMatchObject({ status: 'scored', score: 0 });
  });

  it("gives a scored record its binding's verdict, and none without a pass criterion", async () => {
    const scorer = (score: number) => createScorer({ id: 'answer-quality', description: 'd' }).generateScore(() => score);
    expect(validRecord(context(await outcomeOf(scorer(0.7)), { pass: { atLeast: 0.7 } }))).toMatchObject({ status: 'scored', score: 0.7, verdict: 'pass' });
    expect(validRecord(context(await outcomeOf(scorer(0.69)), { pass: { atLeast: 0.7 } }))).toMatchObject({ status: 'scored', verdict: 'fail' });
    expect(validRecord(context(await outcomeOf(scorer(0.3)), { pass: { atMost: 0.2 } }))).toMatchObject({ verdict: 'fail' });
    expect(validRecord(context(await outcomeOf(scorer(0.3))))).not.toHaveProperty('verdict');
  });

  it('gives not_scorable and failed records no verdict: they are neither pass nor fail', async () => {
    const unscorable = createScorer({ id: 'answer-quality', description: 'd' }).analyze(() => notScorable('no answer')).generateScore(() => 1);
    const failing = createScorer({ id: 'answer-quality', description: 'd' }).generateScore(() => {
      throw new Error('boom');
    });
    for (const scorer of [unscorable, failing]) expect(validRecord(context(await outcomeOf(scorer), { pass: { atMost: 1 } }))).not.toHaveProperty('verdict');
  });

  it("takes a label verdict from a classifier's selected choice", async () => {
    const scorer = createScorer({ id: 'tone', description: 'd' }).analyze(() => ({ question: 'tone', answer: { type: 'choice', choice: 'curt' } })).generateScore(() => 0);
    expect(validRecord(context(await outcomeOf(scorer), { pass: { labels: ['warm', 'neutral'] } }))).toMatchObject({ verdict: 'fail' });
    expect(validRecord(context(await outcomeOf(scorer), { pass: { labels: ['curt'] } }))).toMatchObject({ verdict: 'pass' });
  });

  it('builds a not_scorable record without a score', async () => {
    const scorer = createScorer({ id: 'answer-quality', description: 'd' })
      .preprocess(() => ({ language: 'de' }))
      .analyze(() => notScorable('not English'))
      .generateScore(() => 1);
    const record = validRecord(context(await outcomeOf(scorer)));
    expect(record).toMatchObject({ status: 'not_scorable', notScorable: { step: 'analyze', reason: 'not English' }, steps: { preprocess: { language: 'de' } } });
    expect(record).not.toHaveProperty('score');
    expect(record).not.toHaveProperty('error');
  });

  it('builds a failed record with the error and the evidence of the completed steps', async () => {
    const scorer = createScorer({ id: 'answer-quality', description: 'd' })
      .preprocess(() => ({ claims: 2 }))
      .analyze(() => {
        throw new APICallError({ message: 'Service Unavailable', url: 'http://judge', requestBodyValues: {}, statusCode: 503, isRetryable: true });
      })
      .generateScore(() => 1);
    const record = validRecord(context(await outcomeOf(scorer)));
    expect(record).toMatchObject({
      status: 'failed',
      error: { name: 'AI_APICallError', message: 'Service Unavailable', failedStep: 'analyze', completedSteps: ['preprocess'], retryable: true },
      steps: { preprocess: { claims: 2 } },
    });
    expect(record).not.toHaveProperty('score');
  });

  it('never carries a score in a failed record, even when the snapshot had one', async () => {
    const scorer = createScorer({ id: 'answer-quality', description: 'd' })
      .generateScore(() => 0.6)
      .generateReason(() => {
        throw new Error('reason model down');
      });
    const outcome = await outcomeOf(scorer);
    expect(outcome.status === 'failed' && outcome.snapshot?.score).toBe(0.6);
    const record = validRecord(context(outcome));
    expect(record.status).toBe('failed');
    expect(record).not.toHaveProperty('score');
    expect(record).not.toHaveProperty('reason');
  });

  it('builds a failed record from a failure without a snapshot (a timeout, a first-step throw)', () => {
    const outcome: ScorerOutcome = {
      status: 'failed',
      error: { name: 'ScorerTimeoutError', message: 'too slow', code: 'scorer_timeout', failedStep: 'prepareRun', completedSteps: [], retryable: true },
    };
    const record = validRecord(context(outcome));
    expect(record).toMatchObject({ status: 'failed', steps: {}, prompts: {}, error: outcome.error });
    expect(record).not.toHaveProperty('judge');
  });

  it('carries the judge evidence and prompts of an LLM-judge scorer, valid against the contract', async () => {
    const model = mockJudge({ answer: { score: 0.7 } });
    const scorer = createScorer({ id: 'answer-quality', description: 'd', judge: { model, instructions: 'Grade support answers.' } }).generateScore({
      description: 'Score the answer',
      createPrompt: ({ run }) => `Rate run ${String(run.runId)} from 0 to 1`,
    });
    const record = validRecord(context(await outcomeOf(scorer)));
    expect(record).toMatchObject({ status: 'scored', score: 0.7, prompts: { generateScore: 'Rate run run-7 from 0 to 1' } });
    const execution = record.judge?.generateScore?.executions[0];
    expect(execution).toMatchObject({ status: 'success', judgeModelId: 'mock-judge' });
  });

  it("splits the scorer's time into its judge calls and the rest, added to the stages before it", async () => {
    const model = mockJudge({ answer: { score: 0.7 } });
    const scorer = createScorer({ id: 'answer-quality', description: 'd', judge: { model, instructions: 'Grade.' } }).generateScore({ description: 'Score', createPrompt: () => 'Rate it' });
    const outcome = await outcomeOf(scorer);
    if (outcome.status !== 'scored') throw new Error(`expected a score, got ${outcome.status}`);
    // The prompt step's whole time, as its judge evidence says it.
    outcome.result.judge!.generateScore!.executions[0]!.durationMs = 420;
    const record = validRecord(context(outcome, { durationMs: 460, latencyBefore: { kafkaMs: 12, runSlotMs: 3 } }));
    expect(record.latency).toEqual({ kafkaMs: 12, runSlotMs: 3, scoringMs: 40, judgeMs: 420 });
    // A retry's earlier attempts add up with this one's, stage by stage.
    const retried = validRecord(context(outcome, { durationMs: 460, latencyBefore: { kafkaMs: 12, scoringMs: 5, judgeMs: 1_000, retryWaitMs: 30_000 } }));
    expect(retried.latency).toEqual({ kafkaMs: 12, retryWaitMs: 30_000, scoringMs: 45, judgeMs: 1_420 });
  });

  it('keeps the judge evidence of a failed judge call in a failed record', async () => {
    const model = mockJudge({ answer: providerError(401) });
    const scorer = createScorer({ id: 'answer-quality', description: 'd', judge: { model, instructions: 'Grade.' } })
      .preprocess(() => 'ok')
      .generateScore({ description: 'Score', createPrompt: () => 'Rate it' });
    const record = validRecord(context(await outcomeOf(scorer)));
    expect(record).toMatchObject({ status: 'failed', error: { failedStep: 'generateScore', retryable: false } });
    expect(record.judge?.generateScore?.executions[0]).toMatchObject({ status: 'failed' });
  });
});
