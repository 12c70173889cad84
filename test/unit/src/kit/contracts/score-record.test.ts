import { describe, expect, it } from 'vitest';
import { parseScoreRecord } from '../../../../../src/kit/contracts/parse.ts';
import { failedRecord, notScorableRecord, scoredRecord } from './fixtures.ts';

const paths = (value: unknown) => {
  const result = parseScoreRecord(value);
  return result.success ? [] : result.problems.map((problem) => problem.path);
};

describe('parseScoreRecord', () => {
  it('accepts a record of each status', () => {
    expect(parseScoreRecord(scoredRecord()).success).toBe(true);
    expect(parseScoreRecord(notScorableRecord()).success).toBe(true);
    expect(parseScoreRecord(failedRecord()).success).toBe(true);
  });

  it('accepts the full evidence: judge executions, prompts, steps, trace, sampling, metadata', () => {
    const record = {
      ...scoredRecord(),
      scorerName: 'Completeness',
      scorerVersion: '2',
      metadata: { tenantId: 'acme', environment: 'prod', tags: ['a'], extra: true },
      steps: { preprocess: { claims: ['a'] }, analyze: { verdicts: [] } },
      prompts: { preprocess: 'p', analyze: 'a', generateScore: 's', generateReason: 'r' },
      judge: {
        analyze: {
          executions: [
            {
              status: 'failed', prompt: 'a', judgeModelId: 'm', attemptCount: 2, modelCallCount: 2, durationMs: 30,
              rawOutput: '{oops', finishReason: 'stop', error: { name: 'NoObjectGeneratedError', message: 'bad json' },
              usage: { inputTokens: 20, outputTokens: 10, totalTokens: 30 },
            },
            {
              status: 'success', prompt: 'a', judgeModelId: 'm', judgeProvider: 'openai', attemptCount: 1, modelCallCount: 1, durationMs: 9,
              output: { verdicts: [] }, usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15, reasoningTokens: 1, cachedInputTokens: 2, cacheCreationInputTokens: 0 },
              cost: { amount: 0.001, unit: 'USD', source: 'provider' }, warnings: [], response: { id: 'r1', timestamp: '2025-03-01T10:00:06.000Z', modelId: 'm-2025' },
            },
          ],
        },
      },
      trace: { traceId: '0af7651916cd43dd8448eb211c80319c', parentSpanId: 'b7ad6b7169203331', spanId: '00f067aa0ba902b7' },
      sampling: { rate: 0.5, bucket: 0.25 },
    };
    const result = parseScoreRecord(record);
    expect(result.success ? [] : result.problems).toEqual([]);
  });

  it('requires a score when scored, and only then', () => {
    const missing = scoredRecord() as Record<string, unknown>;
    delete missing.score;
    expect(paths(missing)).toEqual(['score']);
    expect(paths({ ...notScorableRecord(), score: 0.5 })).toEqual(['score']);
    expect(paths({ ...failedRecord(), score: 0.5 })).toEqual(['score']);
  });

  it('rejects non-finite and non-number scores', () => {
    expect(paths({ ...scoredRecord(), score: Number.NaN })).toEqual(['score']);
    expect(paths({ ...scoredRecord(), score: Number.POSITIVE_INFINITY })).toEqual(['score']);
    expect(paths({ ...scoredRecord(), score: '0.5' })).toEqual(['score']);
  });

  it('keeps out-of-range finite scores (no clamping)', () => {
    expect(parseScoreRecord({ ...scoredRecord(), score: 7 }).success).toBe(true);
  });

  it('requires notScorable with not_scorable and error with failed, and rejects them elsewhere', () => {
    const noReason = notScorableRecord() as Record<string, unknown>;
    delete noReason.notScorable;
    expect(paths(noReason)).toEqual(['notScorable']);
    const noError = failedRecord() as Record<string, unknown>;
    delete noError.error;
    expect(paths(noError)).toEqual(['error']);
    expect(paths({ ...scoredRecord(), error: failedRecord().error })).toEqual(['error']);
    expect(paths({ ...scoredRecord(), notScorable: { step: 'analyze' } })).toEqual(['notScorable']);
  });

  it('takes a verdict of pass or fail on a scored record, and on no other', () => {
    expect(paths({ ...scoredRecord(), verdict: 'pass' })).toEqual([]);
    expect(paths({ ...scoredRecord(), verdict: 'fail' })).toEqual([]);
    expect(paths({ ...scoredRecord(), verdict: 'maybe' })).toEqual(['verdict']);
    expect(paths({ ...notScorableRecord(), verdict: 'fail' })).toEqual(['verdict']);
    expect(paths({ ...failedRecord(), verdict: 'fail' })).toEqual(['verdict']);
  });

  it('names an unknown status at the status path', () => {
    expect(paths({ ...scoredRecord(), status: 'ok' })).toEqual(['status']);
  });

  it('reports every problem of a bad record', () => {
    const record = {
      ...failedRecord(),
      scoreId: '',
      source: { topic: 'agent-runs', partition: -1, offset: 'x' },
      trace: { traceId: 'ABC' },
      error: { name: 'E', message: 'm', failedStep: 'judge', completedSteps: ['preprocess', 'nope'], retryable: 'yes' },
      judge: { generateScore: { executions: [{ status: 'success', prompt: 'p', judgeModelId: 'm', attemptCount: 0, modelCallCount: 1, durationMs: 1.5, usage: {} }] } },
    };
    expect(paths(record)).toEqual([
      'scoreId',
      'judge.generateScore.executions[0].attemptCount',
      'judge.generateScore.executions[0].durationMs',
      'trace.traceId',
      'source.partition',
      'source.offset',
      'error.failedStep',
      'error.completedSteps[1]',
      'error.retryable',
    ]);
  });
});

describe('the thread block', () => {
  const thread = { id: 't-1', key: 'acme:t-1', turns: 3, firstRunId: 'run-1', lastRunId: 'run-3', closedBy: 'idle', version: 2, versionId: 'v-2', scope: 'conversation', supersedes: 'v-1' };

  it('is accepted on a thread score, supersedes optional', () => {
    expect(parseScoreRecord({ ...scoredRecord(), thread }).success).toBe(true);
    const { supersedes: _supersedes, ...first } = thread;
    expect(parseScoreRecord({ ...scoredRecord(), thread: { ...first, version: 1 } }).success).toBe(true);
  });

  it('names what is wrong in it', () => {
    expect(paths({ ...scoredRecord(), thread: { ...thread, version: 0, closedBy: 'bored', scope: 'all', turns: 0 } })).toEqual(['thread.turns', 'thread.closedBy', 'thread.version', 'thread.scope']);
  });
});

