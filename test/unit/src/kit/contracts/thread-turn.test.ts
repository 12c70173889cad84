// ThreadTurn v1 and ThreadEnded v1 (docs/threads.md): what the repartition topic carries.
import { describe, expect, it } from 'vitest';
import { parseWith } from '../../../../../src/kit/contracts/parse.ts';
import { threadEndedEventSchema } from '../../../../../src/kit/contracts/thread-ended.ts';
import { threadTurnSchema } from '../../../../../src/kit/contracts/thread-turn.ts';
import { wireRunEvent } from './fixtures.ts';

const turn = () => ({
  schemaVersion: 1,
  type: 'agent.thread.turn',
  thread: { key: 'acme:t-1', id: 't-1', tenantId: 'acme' },
  run: { ...wireRunEvent(), input: { ...wireRunEvent().input, rememberedMessages: [], taggedSystemMessages: {} } },
  trace: { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', sampled: true },
  source: { topic: 'agent-runs', partition: 0, offset: '7' },
  runScores: [
    { scorerId: 'completeness', status: 'scored', score: 0.8 },
    { scorerId: 'toxicity', scorerVersion: '2', status: 'skipped', reason: 'sampling' },
  ],
  shed: ['rememberedMessages'],
});

const problemPaths = (schema: Parameters<typeof parseWith>[0], value: unknown) => {
  const result = parseWith(schema, value);
  return result.success ? [] : result.problems.map((problem) => problem.path);
};

describe('threadTurnSchema', () => {
  it('accepts a turn: the run as an AgentRunEvent (messages decoded to Dates), its trace and run scores', () => {
    const parsed = threadTurnSchema.parse(turn());
    expect(parsed.run.input.inputMessages[0]!.createdAt).toBeInstanceOf(Date);
    expect(parsed.runScores).toHaveLength(2);
  });

  it('names every problem by its path: a bad run, a bad status, a span id that is not one', () => {
    const bad = { ...turn(), run: { ...turn().run, runId: '' }, runScores: [{ scorerId: 'x', status: 'great' }], trace: { spanId: 'nope' }, shed: ['everything'] };
    expect(problemPaths(threadTurnSchema, bad)).toEqual(['run.runId', 'trace.spanId', 'runScores[0].status', 'shed[0]']);
  });
});

describe('threadEndedEventSchema', () => {
  it('accepts an end with or without the last run id', () => {
    expect(threadEndedEventSchema.safeParse({ schemaVersion: 1, type: 'agent.thread.ended', threadId: 't-1', timestamp: '2025-03-01T10:00:00Z' }).success).toBe(true);
    expect(threadEndedEventSchema.safeParse({ schemaVersion: 1, type: 'agent.thread.ended', threadId: 't-1', tenantId: 'acme', lastRunId: 'run-9', reason: 'user_closed_chat', timestamp: '2025-03-01T10:00:00Z' }).success).toBe(true);
  });

  it('requires a thread id and a timestamp', () => {
    expect(problemPaths(threadEndedEventSchema, { schemaVersion: 1, type: 'agent.thread.ended', threadId: '', timestamp: 'yesterday' })).toEqual(['threadId', 'timestamp']);
  });
});
