// buildThreadTurn: the re-keyed turn of a scored run, slimmed to its budget and never dropped.
import { describe, expect, it } from 'vitest';
import { threadTurnSchema } from '../../../../../src/kit/contracts/thread-turn.ts';
import type { DecisionRecord } from '../../../../../src/kit/contracts/decision-record.ts';
import type { ScoreRecord } from '../../../../../src/kit/contracts/score-record.ts';
import { buildThreadTurn, runScoreSummaries } from '../../../../../src/engine/threads/build-thread-turn.ts';
import { traceFor } from '../../../../helpers/runs.ts';
import { conversationFacts, noScoring, runScore } from './fixtures.ts';

const decision: DecisionRecord = { schemaVersion: 1, runId: 'run-1', scorerId: 'toxicity', scorerVersion: '2', decision: 'skipped', reason: 'sampling', source: { topic: 'agent-runs', partition: 1, offset: '0' }, decidedAt: '2026-11-29T12:00:01.000Z' };
const parse = (json: string) => threadTurnSchema.parse(JSON.parse(json));

describe('buildThreadTurn', () => {
  it('keys the turn by the thread and carries the run, its trace, its source and its run scores', () => {
    const facts = conversationFacts({ runId: 'run-1', threadId: 't-1', tenantId: 'acme', offset: 41, rememberedMessages: 3 });
    const message = buildThreadTurn(facts, { records: [runScore('run-1', 'completeness', 0.8)], decisions: [decision] }, { maxTurnBytes: 65_536 })!;
    expect(message.key).toBe('acme:t-1');
    expect(message.bytes).toBe(Buffer.byteLength(message.json));
    const turn = parse(message.json);
    expect(turn.thread).toEqual({ key: 'acme:t-1', id: 't-1', tenantId: 'acme' });
    expect(turn.run.runId).toBe('run-1');
    expect(turn.run.input.inputMessages[0]!.createdAt).toBeInstanceOf(Date);
    expect(turn.trace).toEqual({ traceId: traceFor('run-1').traceId, spanId: traceFor('run-1').spanId, sampled: true });
    expect(turn.source).toEqual({ topic: 'agent-runs', partition: 1, offset: '41' });
    expect(turn.runScores).toEqual([
      { scorerId: 'completeness', status: 'scored', score: 0.8 },
      { scorerId: 'toxicity', scorerVersion: '2', status: 'skipped', reason: 'sampling' },
    ]);
    // The recalled history is always shed: the thread holds the earlier turns themselves.
    expect(turn.run.input.rememberedMessages).toEqual([]);
    expect(turn.shed).toEqual(['rememberedMessages']);
    expect(turn).not.toHaveProperty('ended');
  });

  it('marks the turn of a run that says it is the last (metadata.threadEnded)', () => {
    const message = buildThreadTurn(conversationFacts({ runId: 'run-1', threadId: 't-1', metadata: { threadEnded: true } }), noScoring, { maxTurnBytes: 65_536 })!;
    expect(parse(message.json).ended).toBe(true);
  });

  it('is undefined for a run without a thread', () => {
    expect(buildThreadTurn(conversationFacts({ runId: 'run-1' }), noScoring, { maxTurnBytes: 65_536 })).toBeUndefined();
  });

  it('sheds what does not fit, in order, and says what went: context and metadata before texts', () => {
    const facts = conversationFacts({ runId: 'run-1', threadId: 't-1', requestContext: { profile: 'p'.repeat(3_000) }, metadata: { notes: 'n'.repeat(3_000) }, answer: 'The answer. '.repeat(50) });
    const full = buildThreadTurn(facts, noScoring, { maxTurnBytes: 65_536 })!;
    const message = buildThreadTurn(facts, noScoring, { maxTurnBytes: full.bytes - 2_000 })!;
    expect(message.shed).toEqual(['systemMessages', 'requestContext']);
    const turn = parse(message.json);
    expect(turn.run.requestContext).toEqual({});
    expect(turn.run.metadata).toMatchObject({ notes: 'n'.repeat(3_000) });
    const tighter = buildThreadTurn(facts, noScoring, { maxTurnBytes: full.bytes - 5_000 })!;
    expect(tighter.shed).toEqual(['systemMessages', 'requestContext', 'metadata']);
    expect(parse(tighter.json).run.metadata).toEqual({ environment: 'test' });
    expect(parse(tighter.json).run.output[0]!.content.content).toBe('The answer. '.repeat(50));
  });

  it('cuts long texts and tool values with a marker before it gives up the messages', () => {
    const facts = conversationFacts({ runId: 'run-1', threadId: 't-1', answer: 'x'.repeat(20_000), tools: [{ toolName: 'search', result: { page: 'y'.repeat(20_000) } }] });
    const message = buildThreadTurn(facts, noScoring, { maxTurnBytes: 8_000 })!;
    expect(message.bytes).toBeLessThanOrEqual(8_000);
    expect(message.shed).toContain('messageText');
    expect(message.shed).not.toContain('messages');
    const output = parse(message.json).run.output[0]!;
    const text = output.content.parts.find((part) => part.type === 'text') as { text: string };
    expect(text.text).toMatch(/^x{1000}…\[truncated 19000 characters\]$/);
    const tool = output.content.parts.find((part) => part.type === 'tool-invocation') as { toolInvocation: { result: unknown; toolName: string } };
    expect(tool.toolInvocation.toolName).toBe('search');
    expect(tool.toolInvocation.result).toMatch(/…\[truncated \d+ characters\]$/);
  });

  it('keeps the turn, without messages, when nothing else makes it fit', () => {
    const facts = conversationFacts({ runId: 'run-1', threadId: 't-1' });
    const message = buildThreadTurn(facts, noScoring, { maxTurnBytes: 900 })!;
    expect(message.shed).toEqual(['systemMessages', 'requestContext', 'messageText', 'messages']);
    expect(message.bytes).toBeLessThanOrEqual(900);
    const turn = parse(message.json);
    expect(turn.run.input.inputMessages).toEqual([]);
    expect(turn.run.output).toEqual([]);
    expect(turn.run.runId).toBe('run-1');
    // Even a bare turn over the budget is kept (the thread must learn of the run): the caller's size budget decides.
    const bare = buildThreadTurn(facts, noScoring, { maxTurnBytes: 100 })!;
    expect(bare.bytes).toBe(message.bytes);
  });
});

describe('runScoreSummaries', () => {
  it('summarises records by status (score only when scored) and decisions by their decision and reason', () => {
    const failed: ScoreRecord = { schemaVersion: 1, scoreId: 's', runId: 'r', scorerId: 'judge', entity: { type: 'agent', id: 'a' }, steps: {}, prompts: {}, source: decision.source, scoredAt: decision.decidedAt, durationMs: 1, status: 'failed', error: { name: 'E', message: 'm', failedStep: 'analyze', completedSteps: [], retryable: true } };
    expect(runScoreSummaries({ records: [failed], decisions: [{ ...decision, decision: 'deferred', reason: 'deferred_retry' }] })).toEqual([
      { scorerId: 'judge', status: 'failed' },
      { scorerId: 'toxicity', scorerVersion: '2', status: 'deferred', reason: 'deferred_retry' },
    ]);
  });
});
