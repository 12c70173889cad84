// The data handling of a resolved config, through its one entry (`outgoing`): each binding's
// evidence level (its own, else the config's), redaction of everything a record carries but its
// ids; decisions, a deferral's retry message and a dead letter's reason handled too; one compiled
// handling per config.
import { describe, expect, it } from 'vitest';
import { parseScoreRecord } from '../../../../../src/kit/contracts/parse.ts';
import type { DeadLetter } from '../../../../../src/kit/contracts/dead-letter.ts';
import type { DecisionRecord } from '../../../../../src/kit/contracts/decision-record.ts';
import type { RetryMessage } from '../../../../../src/kit/contracts/retry-message.ts';
import type { FailedScoreRecord, ScoreRecord } from '../../../../../src/kit/contracts/score-record.ts';
import { resolveConfig } from '../../../../../src/engine/config/resolve-config.ts';
import { createDataHandling, dataHandlingOf } from '../../../../../src/engine/data-handling/data-handling.ts';
import { createScorer } from '../../../../../src/kit/scorer/create-scorer.ts';

const tone = createScorer({ id: 'tone', description: 'd' }).generateScore(() => 1);
const length = createScorer({ id: 'length', description: 'd' }).generateScore(() => 1);
const address = 'alice@example.com';

function recordOf(scorerId: string, scorerVersion?: string): ScoreRecord {
  return {
    schemaVersion: 1,
    scoreId: `${address}-id`,
    runId: `run-of-${address}`,
    scorerId,
    ...(scorerVersion === undefined ? {} : { scorerVersion }),
    entity: { type: 'agent', id: 'support' },
    metadata: { tenantId: 'acme', tags: [`user:${address}`] },
    steps: { analyze: { quote: `mail ${address}` } },
    prompts: { analyze: `Rate: ${address}` },
    source: { topic: 'runs', partition: 0, offset: '1' },
    scoredAt: '2026-12-01T00:00:00.000Z',
    durationMs: 3,
    status: 'scored',
    score: 1,
    reason: `mentions ${address}`,
  };
}

describe('dataHandlingOf(config).outgoing', () => {
  const config = resolveConfig({
    kafka: { brokers: ['localhost:9092'] },
    evidence: 'no-content',
    scorers: [{ scorer: tone, evidence: 'full' }, { scorer: tone, version: '2' }, { scorer: length, evidence: 'none' }],
  });
  const handling = dataHandlingOf(config);
  const scoreRecord = (record: ScoreRecord) => handling.outgoing({ kind: 'record', record }).record;

  it('gives each binding its evidence level: its own, else the config’s', () => {
    expect(scoreRecord(recordOf('tone')).prompts).toEqual({ analyze: 'Rate: [redacted:email]' });
    expect(scoreRecord(recordOf('tone', '2'))).toMatchObject({ evidence: 'no-content', prompts: {} });
    expect(scoreRecord(recordOf('length')).evidence).toBe('none');
    // A scorer no longer bound (a retry's binding_removed record) gets the config's level.
    expect(scoreRecord(recordOf('gone')).evidence).toBe('no-content');
  });

  it('redacts every string a record carries except the ids that key and join it', () => {
    const handled = scoreRecord(recordOf('tone'));
    expect(parseScoreRecord(handled).success).toBe(true);
    expect(handled).toMatchObject({
      scoreId: `${address}-id`,
      runId: `run-of-${address}`,
      reason: 'mentions [redacted:email]',
      steps: { analyze: { quote: 'mail [redacted:email]' } },
      metadata: { tenantId: 'acme', tags: ['user:[redacted:email]'] },
    });
  });

  it("keeps a thread score's thread block as it is: its ids, key and run ids join it to its turns", () => {
    // An OTLP run id is trace id and span id in hex, and about one in ten holds a digit run that
    // passes the card-number pattern's Luhn check (4111111111111111 here): it must stay an id.
    const runId = '0fe6229c4111111111111111efb23fe0-b7ad6b7169203331';
    const thread = {
      id: `chat-${address}`,
      key: `acme:chat-${address}`,
      turns: 2,
      firstRunId: runId,
      lastRunId: `${runId}-2`,
      closedBy: 'idle' as const,
      version: 1,
      versionId: 'v-4111111111111111',
      scope: 'conversation' as const,
      runIds: [runId, `${runId}-2`],
    };
    const handled = scoreRecord({ ...recordOf('tone'), runId, thread });
    expect(handled.thread).toEqual(thread);
    expect(handled.runId).toBe(runId);
    expect(handled.reason).toBe('mentions [redacted:email]');
  });

  it('keeps the escalation block and the spend as they are: machine-made, and read by the metrics and the dashboard', () => {
    // A scorer id an e-mail pattern would rewrite, in `after`: it must stay the id the predicate read.
    const escalation = { tier: 'escalated' as const, after: [`check-${address}`], sample: { rate: 0.05, bucket: 0.4 } };
    const spend = { judgeCalls: 1, inputTokens: 10, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 2, reasoningTokens: 0, cost: { amount: 0.001, unit: 'USD' } };
    const handled = scoreRecord({ ...recordOf('tone'), escalation, spend });
    expect(handled.escalation).toEqual(escalation);
    expect(handled.spend).toEqual(spend);
    expect(scoreRecord({ ...recordOf('length'), spend }).spend).toEqual(spend);
  });

  it('redacts decision details and dead-letter errors, keeping the dead letter’s original bytes', () => {
    const decision: DecisionRecord = { schemaVersion: 1, runId: 'r', scorerId: 'tone', decision: 'skipped', reason: 'predicate_error', detail: `when: no user ${address}`, source: { topic: 'runs', partition: 0, offset: '1' }, decidedAt: '2026-12-01T00:00:00.000Z' };
    expect(handling.outgoing({ kind: 'skipped', decision }).decision).toEqual({ ...decision, detail: 'when: no user [redacted:email]' });
    const value = `{"email": "${address}", `;
    const letter: DeadLetter = {
      schemaVersion: 1,
      key: null,
      value: { encoding: 'utf8', data: value },
      headers: {},
      source: { topic: 'runs', partition: 0, offset: '2' },
      error: { code: 'invalid_json', message: `Expected property name or '}' in JSON at position 30: ${value}` },
      deadLetteredAt: '2026-12-01T00:00:00.000Z',
    };
    // The message rides along untouched: only the reason is ours.
    const message = { value: Buffer.from(value) };
    const handled = handling.outgoing({ kind: 'dead-letter', error: letter.error, message });
    expect(handled.error.message).toBe(`Expected property name or '}' in JSON at position 30: {"email": "[redacted:email]", `);
    expect(handled.message).toBe(message);
  });

  it("handles a deferral whole: the retry message's attempts at the binding's level and redacted, its run event untouched; its decision and final record", () => {
    const error = { name: 'JudgeError', message: `upstream quoted ${address}`, failedStep: 'analyze' as const, completedSteps: [], retryable: true };
    const judge = { analyze: { executions: [{ status: 'failed' as const, prompt: `Rate: ${address}`, judgeModelId: 'm', attemptCount: 1, modelCallCount: 1, durationMs: 1, error: { name: 'E', message: 'down' } }] } };
    const event = { runId: 'run-1', input: `from ${address}` } as unknown as RetryMessage['event'];
    const retry = (scorerId: string): RetryMessage => ({
      schemaVersion: 1,
      runId: 'run-1',
      scorerId,
      attempt: 1,
      firstFailedAt: '2026-12-01T00:00:00.000Z',
      dueAt: '2026-12-01T00:01:00.000Z',
      source: { topic: 'runs', partition: 0, offset: '1' },
      trace: {},
      attempts: [{ failedAt: '2026-12-01T00:00:00.000Z', durationMs: 3, error, judge }],
      event,
    });
    const decision: DecisionRecord = { schemaVersion: 1, runId: 'run-1', scorerId: 'tone', decision: 'deferred', reason: 'deferred_retry', detail: `JudgeError: upstream quoted ${address}`, source: { topic: 'runs', partition: 0, offset: '1' }, decidedAt: '2026-12-01T00:00:00.000Z' };
    const final = { ...recordOf('tone'), status: 'failed', score: undefined, reason: undefined, error } as unknown as FailedScoreRecord;
    const full = handling.outgoing({ kind: 'deferred', retry: retry('tone'), delayMs: 60_000, decision, final });
    expect(full.retry.event).toBe(event);
    expect(full.retry.attempts[0]).toMatchObject({ error: { message: 'upstream quoted [redacted:email]' }, judge: { analyze: { executions: [{ prompt: 'Rate: [redacted:email]' }] } } });
    expect(full.decision.detail).toBe('JudgeError: upstream quoted [redacted:email]');
    expect(full.final).toMatchObject({ status: 'failed', error: { message: 'upstream quoted [redacted:email]' }, prompts: { analyze: 'Rate: [redacted:email]' } });
    // A binding at `none`: its attempts carry no judge evidence, as its record will not.
    const none = handling.outgoing({ kind: 'deferred', retry: retry('length'), delayMs: 60_000, decision, final: { ...final, scorerId: 'length' } });
    expect(none.retry.attempts[0]!.judge).toBeUndefined();
    expect(none.retry.event).toBe(event);
    expect(none.final).toMatchObject({ evidence: 'none', prompts: {} });
  });

  it('compiles once per config', () => {
    expect(dataHandlingOf(config)).toBe(handling);
    expect(createDataHandling(config)).not.toBe(handling);
  });

  it('with redaction off and full evidence, returns records as they are', () => {
    const off = dataHandlingOf(resolveConfig({ kafka: { brokers: ['localhost:9092'] }, redaction: { builtins: false }, scorers: [{ scorer: tone }] }));
    const record = recordOf('tone');
    const payload = { kind: 'record' as const, record };
    expect(off.outgoing(payload)).toBe(payload);
  });
});
