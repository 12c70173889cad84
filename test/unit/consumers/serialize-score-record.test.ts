// The serialisation fallback: a record whose step results cannot be written as JSON goes out as
// `failed`, saying why, with everything that identifies it kept.
import { describe, expect, it } from 'vitest';
import { serializeScoreRecord } from '../../../consumers/serialize-score-record.ts';
import { parseScoreRecord } from '../../../src/contracts/parse.ts';
import type { ScoreRecord } from '../../../src/contracts/score-record.ts';

const scored = {
  schemaVersion: 1,
  scoreId: 'score-1',
  runId: 'run-1',
  scorerId: 'tone',
  scorerVersion: '2',
  entity: { type: 'agent', id: 'support-agent' },
  steps: { preprocess: { words: 3 } },
  prompts: { analyze: 'Is it polite?' },
  trace: { traceId: '0af7651916cd43dd8448eb211c80319c' },
  source: { topic: 'agent-runs', partition: 0, offset: '7' },
  scoredAt: '2026-11-29T12:00:01.000Z',
  durationMs: 4,
  status: 'scored',
  score: 0.5,
  reason: 'fine',
} as ScoreRecord;

describe('serializeScoreRecord', () => {
  it('writes a plain record as its JSON', () => {
    expect(serializeScoreRecord(scored)).toBe(JSON.stringify(scored));
  });

  it.each([
    ['a BigInt', { preprocess: { count: 10n } }, /BigInt/],
    ['a cycle', (() => {
      const cyclic: Record<string, unknown> = {};
      cyclic.self = cyclic;
      return { analyze: cyclic };
    })(), /circular/i],
  ])('turns a record whose step results hold %s into a failed record that says why', (_name, steps, cause) => {
    const written = JSON.parse(serializeScoreRecord({ ...scored, steps } as ScoreRecord)) as Record<string, unknown>;
    expect(written).toMatchObject({
      scoreId: 'score-1',
      runId: 'run-1',
      scorerId: 'tone',
      scorerVersion: '2',
      source: scored.source,
      trace: scored.trace,
      prompts: scored.prompts,
      status: 'failed',
      steps: {},
      error: { name: 'UnserializableResultError', code: 'unserializable_result', failedStep: 'generateReason', completedSteps: [], retryable: false },
    });
    expect((written.error as { message: string }).message).toMatch(cause);
    expect((written.error as { message: string }).message).toMatch(/return plain JSON values from steps/);
    for (const dropped of ['score', 'reason', 'notScorable', 'judge']) expect(written).not.toHaveProperty(dropped);
    expect(parseScoreRecord(written).success).toBe(true);
  });

  it('drops the judge evidence too, which is where an unserialisable judge output would sit', () => {
    const withJudge = { ...scored, judge: { analyze: { executions: [{ output: 1n }] } } } as unknown as ScoreRecord;
    const written = JSON.parse(serializeScoreRecord(withJudge)) as Record<string, unknown>;
    expect(written.status).toBe('failed');
    expect(written).not.toHaveProperty('judge');
  });
});
