// Thread bindings in the config (docs/threads.md): `level: 'thread'` moves a binding out of
// `scorers` into `threadScorers` with its thread options defaulted, and every mistake is reported
// under the field it is about.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../../../src/engine/config/config-error.ts';
import type { ScorestreamConfigInput } from '../../../../../src/engine/config/config-types.ts';
import { resolveConfig } from '../../../../../src/engine/config/resolve-config.ts';
import { createScorer } from '../../../../../src/kit/scorer/create-scorer.ts';

const resolution = createScorer({ id: 'conversation-resolution', description: 'd' }).generateScore(() => 1);
const length = createScorer({ id: 'answer-length', description: 'd' }).generateScore(() => 1);

const config = (extra: Partial<ScorestreamConfigInput> & Pick<ScorestreamConfigInput, 'scorers'>): ScorestreamConfigInput => ({ kafka: { brokers: ['localhost:9092'] }, ...extra });

function problemsOf(input: unknown): { path: string; message: string }[] {
  try {
    resolveConfig(input as ScorestreamConfigInput);
  } catch (error) {
    expect(ConfigError.isInstance(error)).toBe(true);
    return (error as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}

describe('thread bindings', () => {
  it('moves level: thread bindings to threadScorers with every thread option defaulted; the run path keeps the rest', () => {
    const resolved = resolveConfig(config({ scorers: [{ scorer: length }, { scorer: resolution, level: 'thread', version: '1' }] }));
    expect(resolved.scorers.map((binding) => binding.scorerId)).toEqual(['answer-length']);
    expect(resolved.threadScorers).toEqual([
      {
        scorer: resolution,
        scorerId: 'conversation-resolution',
        version: '1',
        timeoutMs: 120_000,
        level: 'thread',
        thread: { idleMs: 900_000, maxTurns: 100, maxAgeMs: 86_400_000, onResume: 'rescore', minRescoreIntervalMs: 0, maxRescores: 10 },
      },
    ]);
  });

  it('keeps the thread options a binding sets and defaults the rest; a config may bind thread scorers only', () => {
    const resolved = resolveConfig(config({ scorers: [{ scorer: resolution, level: 'thread', thread: { idleMs: 60_000, onResume: 'segment' }, sampling: { type: 'ratio', rate: 0.5 } }] }));
    expect(resolved.scorers).toEqual([]);
    expect(resolved.threadScorers[0]!.thread).toEqual({ idleMs: 60_000, maxTurns: 100, maxAgeMs: 86_400_000, onResume: 'segment', minRescoreIntervalMs: 0, maxRescores: 10 });
    expect(resolved.threadScorers[0]!.sampling).toEqual({ type: 'ratio', rate: 0.5 });
  });

  it('lets one scorer be bound at both levels under the same version (their score ids never collide)', () => {
    const resolved = resolveConfig(config({ scorers: [{ scorer: length }, { scorer: length, level: 'thread' }] }));
    expect(resolved.scorers).toHaveLength(1);
    expect(resolved.threadScorers).toHaveLength(1);
    expect(problemsOf(config({ scorers: [{ scorer: length, level: 'thread' }, { scorer: length, level: 'thread' }] }))).toEqual([
      { path: 'scorers[1]', message: "scorer 'answer-length' is already bound at scorers[0]; give one of them a different version" },
    ]);
  });

  it('refuses thread options on a run binding, an unknown level, an unknown onResume and bad numbers, each by its field', () => {
    const problems = problemsOf(
      config({
        scorers: [
          { scorer: length, thread: { idleMs: 1_000 } },
          { scorer: resolution, level: 'conversation' as never },
          { scorer: resolution, level: 'thread', version: '2', thread: { onResume: 'replace' as never, maxTurns: 0, maxRescores: -1, idleMs: 1.5, extra: true } as never },
        ],
      }),
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        { path: 'scorers[0].thread', message: "thread options only apply to a binding with level: 'thread'; add it, or remove the thread options" },
        { path: 'scorers[1].level', message: "expected one of 'run', 'thread'" },
        { path: 'scorers[2].thread.onResume', message: "expected one of 'rescore', 'segment', 'once'" },
      ]),
    );
    expect(problems.map((problem) => problem.path)).toEqual(
      expect.arrayContaining(['scorers[2].thread.maxTurns', 'scorers[2].thread.maxRescores', 'scorers[2].thread.idleMs', 'scorers[2].thread']),
    );
  });

  it('checks that every thread closes before its state expires', () => {
    expect(problemsOf(config({ threads: { stateTtlMs: 600_000 }, scorers: [{ scorer: resolution, level: 'thread', thread: { idleMs: 300_000, minRescoreIntervalMs: 300_000 } }] }))).toEqual([
      { path: 'scorers[0].thread.idleMs', message: 'idleMs (300000) plus minRescoreIntervalMs (300000) must be below threads.stateTtlMs (600000), or threads would expire before they close' },
    ]);
  });
});

describe('the threads section', () => {
  it('defaults every bound and takes a thread id path into the run metadata or request context', () => {
    const resolved = resolveConfig(config({ scorers: [{ scorer: length }], threads: { idPath: 'requestContext.session.id', maxThreads: 50 } }));
    expect(resolved.threads).toEqual({ idPath: 'requestContext.session.id', maxThreads: 50, maxStateBytes: 134_217_728, maxThreadBytes: 524_288, maxTurnBytes: 65_536, stateTtlMs: 604_800_000 });
  });

  it('refuses a path elsewhere, and bounds that cannot nest, naming the field', () => {
    expect(problemsOf(config({ scorers: [{ scorer: length }], threads: { idPath: 'entity.id' } }))).toEqual([
      { path: 'threads.idPath', message: `expected a path into the run's metadata or requestContext, such as 'metadata.sessionId' or 'requestContext.conversation.id', got "entity.id"` },
    ]);
    expect(problemsOf(config({ scorers: [{ scorer: length }], threads: { idPath: 'metadata' } })).map((problem) => problem.path)).toEqual(['threads.idPath']);
    expect(problemsOf(config({ scorers: [{ scorer: length }], threads: { maxTurnBytes: 2_000, maxThreadBytes: 1_000, maxStateBytes: 500 } }))).toEqual([
      { path: 'threads.maxTurnBytes', message: 'must not exceed threads.maxThreadBytes (1000): one turn must fit in a thread' },
      { path: 'threads.maxThreadBytes', message: "must not exceed threads.maxStateBytes (500): one thread must fit in the instance's thread state" },
    ]);
    expect(problemsOf(config({ scorers: [{ scorer: length }], threads: { maxThreads: 0, surprise: 1 } as never })).map((problem) => problem.path).sort()).toEqual(['threads', 'threads.maxThreads']);
  });
});
