// fitScoreRecord: a score record as published, within the output's size limit. A plain record is
// its JSON; one whose results cannot be written goes out as failed, saying why; one over the
// limit sheds steps, then prompts, then judge outputs, saying so in `truncated`, and keeps its
// score and verdict; one that does not fit even so is failed/record_too_large with its identity; every form
// has a smaller one for a broker that refuses it.
import { describe, expect, it } from 'vitest';
import { fitScoreRecord, jsonBytes, smallerFromJson } from '../../../../../src/kit/contracts/fit-score-record.ts';
import type { FittedScoreRecord } from '../../../../../src/kit/contracts/fit-score-record.ts';
import { parseScoreRecord } from '../../../../../src/kit/contracts/parse.ts';
import type { ScoreRecord } from '../../../../../src/kit/contracts/score-record.ts';

const scored = {
  schemaVersion: 1,
  scoreId: 'score-1',
  runId: 'run-1',
  scorerId: 'tone',
  scorerVersion: '2',
  entity: { type: 'agent', id: 'support-agent' },
  metadata: { tenantId: 'acme' },
  steps: { preprocess: { words: 3 } },
  prompts: { analyze: 'Is it polite?' },
  trace: { traceId: '0af7651916cd43dd8448eb211c80319c' },
  source: { topic: 'agent-runs', partition: 0, offset: '7' },
  scoredAt: '2026-11-29T12:00:01.000Z',
  durationMs: 4,
  status: 'scored',
  score: 0.5,
  verdict: 'pass',
  reason: 'fine',
} as ScoreRecord;

const execution = (prompt: string, output: unknown) => ({ status: 'success' as const, prompt, judgeModelId: 'm', attemptCount: 1, modelCallCount: 1, durationMs: 3, output, usage: { inputTokens: 1 } });
const heavy = {
  ...scored,
  steps: { preprocess: { answer: 'a'.repeat(3_000) }, analyze: { found: 'f'.repeat(3_000) } },
  prompts: { analyze: 'p'.repeat(2_000) },
  judge: { analyze: { executions: [execution('q'.repeat(2_000), { verdicts: 'v'.repeat(2_000) })] } },
} as ScoreRecord;

const written = (limit: number, record: ScoreRecord = heavy) => {
  const fitted = fitScoreRecord(record, limit)!;
  expect(fitted.bytes).toBeLessThanOrEqual(limit);
  expect(fitted.json).toBe(JSON.stringify(fitted.record));
  expect(parseScoreRecord(JSON.parse(fitted.json)).success).toBe(true);
  return JSON.parse(fitted.json) as ScoreRecord;
};

describe('fitScoreRecord', () => {
  it('writes a plain record within the limit as its JSON', () => {
    expect(fitScoreRecord(scored, 100_000)!.json).toBe(JSON.stringify(scored));
  });

  it.each([
    ['a BigInt', { preprocess: { count: 10n } }, /BigInt/],
    ['a cycle', (() => {
      const cyclic: Record<string, unknown> = {};
      cyclic.self = cyclic;
      return { analyze: cyclic };
    })(), /circular/i],
  ])('turns a record whose step results hold %s into a failed record that says why', (_name, steps, cause) => {
    const record = JSON.parse(fitScoreRecord({ ...scored, steps } as ScoreRecord, 100_000)!.json) as Record<string, unknown>;
    expect(record).toMatchObject({
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
    expect((record.error as { message: string }).message).toMatch(cause);
    expect((record.error as { message: string }).message).toMatch(/return plain JSON values from steps/);
    for (const dropped of ['score', 'verdict', 'reason', 'notScorable', 'judge']) expect(record).not.toHaveProperty(dropped);
    expect(parseScoreRecord(record).success).toBe(true);
  });

  it('drops the judge evidence too when that is what cannot be written', () => {
    const withJudge = { ...scored, judge: { analyze: { executions: [{ output: 1n }] } } } as unknown as ScoreRecord;
    const record = JSON.parse(fitScoreRecord(withJudge, 100_000)!.json) as Record<string, unknown>;
    expect(record.status).toBe('failed');
    expect(record).not.toHaveProperty('judge');
  });

  it('sheds the raw step results first, saying how many bytes they took, and keeps the score and its verdict', () => {
    const full = Buffer.byteLength(JSON.stringify(heavy));
    const record = written(full - 1_000);
    expect(record).toMatchObject({ status: 'scored', score: 0.5, verdict: 'pass', reason: 'fine', scoreId: 'score-1', steps: {}, prompts: heavy.prompts });
    expect(record.truncated).toEqual({ originalBytes: full, limitBytes: full - 1_000, dropped: [{ part: 'steps', bytes: expect.any(Number) }] });
    expect(record.truncated!.dropped[0]!.bytes).toBeGreaterThan(6_000);
    expect(record.judge!.analyze!.executions[0]!.prompt).toBe('q'.repeat(2_000));
  });

  it('then the prompts (the record’s and each judge execution’s), then the judge outputs', () => {
    const withoutPrompts = written(4_000);
    expect(withoutPrompts.truncated!.dropped.map((part) => part.part)).toEqual(['steps', 'prompts']);
    expect(withoutPrompts.prompts).toEqual({});
    expect(withoutPrompts.judge!.analyze!.executions[0]).toMatchObject({ prompt: '', output: { verdicts: 'v'.repeat(2_000) }, usage: { inputTokens: 1 } });
    const withoutOutputs = written(1_500);
    expect(withoutOutputs.truncated!.dropped.map((part) => part.part)).toEqual(['steps', 'prompts', 'judgeOutputs']);
    expect(withoutOutputs.judge!.analyze!.executions[0]).toMatchObject({ output: null, prompt: '', usage: { inputTokens: 1 } });
    expect(withoutOutputs).toMatchObject({ status: 'scored', score: 0.5, verdict: 'pass' });
  });

  it('goes out as failed/record_too_large when even without evidence it is over, its identity kept', () => {
    const longReason = { ...heavy, reason: 'r'.repeat(5_000) } as ScoreRecord;
    const record = written(2_000, longReason);
    expect(record).toMatchObject({
      status: 'failed',
      scoreId: 'score-1',
      runId: 'run-1',
      scorerId: 'tone',
      scorerVersion: '2',
      entity: heavy.entity,
      metadata: { tenantId: 'acme' },
      trace: heavy.trace,
      source: heavy.source,
      error: { name: 'RecordTooLargeError', code: 'record_too_large', retryable: false },
      truncated: { limitBytes: 2_000, dropped: [{ part: 'steps' }, { part: 'prompts' }, { part: 'judgeOutputs' }] },
    });
    expect(record.status === 'failed' && record.error.message).toMatch(/scored 0\.5 \(pass\)/);
    for (const dropped of ['score', 'verdict', 'reason', 'judge']) expect(record).not.toHaveProperty(dropped);
  });

  it('keeps the latency, machine-made and small, in the record_too_large form', () => {
    const latency = { kafkaMs: 40, runSlotMs: 2, dispatchMs: 1, scoringMs: 3, judgeMs: 900 };
    const record = written(2_000, { ...heavy, reason: 'r'.repeat(5_000), latency } as ScoreRecord);
    expect(record).toMatchObject({ status: 'failed', error: { code: 'record_too_large' }, latency });
  });

  it('keeps the escalation tier and the judge spend in the record_too_large form: the metrics and the dashboard count them from it', () => {
    const escalation = { tier: 'escalated' as const, after: ['tool-check'], sample: { rate: 0.05, bucket: 0.7 } };
    const spend = { judgeCalls: 2, inputTokens: 900, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 40, reasoningTokens: 0, cost: { amount: 0.0003, unit: 'USD' } };
    const record = written(2_000, { ...heavy, reason: 'r'.repeat(5_000), escalation, spend } as ScoreRecord);
    expect(record).toMatchObject({ status: 'failed', error: { code: 'record_too_large' }, escalation, spend });
  });

  it('has no form at all within a limit smaller than its identity', () => {
    expect(fitScoreRecord(scored, 50)).toBeUndefined();
  });

  it('gives each form a smaller one, ending with nothing', () => {
    let form = fitScoreRecord(heavy, 1_000_000);
    const seen: string[] = [];
    while (form !== undefined) {
      seen.push(form.record.status === 'failed' ? `failed${form.record.metadata === undefined ? '' : '+metadata'}` : (form.record.truncated?.dropped.map((part) => part.part).join('+') ?? 'whole'));
      form = form.smaller();
    }
    expect(seen).toEqual(['whole', 'steps', 'steps+prompts', 'steps+prompts+judgeOutputs', 'failed+metadata', 'failed']);
  });

  it('counts UTF-8 bytes, not characters, once a text could be over the limit', () => {
    expect(jsonBytes('"é"', 1_000)).toBe(3);
    expect(jsonBytes('"é"', 5)).toBe(4);
  });
});

describe('smallerFromJson', () => {
  const chain = (first: FittedScoreRecord | undefined) => {
    const forms: string[] = [];
    for (let form = first; form !== undefined; form = form.smaller()) forms.push(form.json);
    return forms;
  };

  it('makes from a whole record’s JSON the very forms its fitting would, down to record_too_large', () => {
    for (const record of [scored, heavy, { ...heavy, retries: { attempts: [{ attempt: 1, judge: heavy.judge }] } } as unknown as ScoreRecord]) {
      const fitted = fitScoreRecord(record, 1_000_000)!;
      expect(fitted.readsBack).toBe(true);
      const fromJson = chain(smallerFromJson(Buffer.from(fitted.json), 1_000_000));
      expect(fromJson).toEqual(chain(fitted.smaller()));
      expect(fromJson.length).toBeGreaterThanOrEqual(2);
    }
  });

  it('says which fittings do not read back as their record: a form cut to fit, a record that could not be written', () => {
    expect(fitScoreRecord(heavy, 4_000)!.readsBack).toBe(false);
    expect(fitScoreRecord(heavy, 1_000_000)!.smaller()!.readsBack).toBe(false);
    expect(fitScoreRecord({ ...scored, steps: { preprocess: { big: 1n } } } as unknown as ScoreRecord, 1_000_000)!.readsBack).toBe(false);
  });
});
