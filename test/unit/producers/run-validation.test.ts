import { describe, expect, it } from 'vitest';
import { InvalidRunError, validateRuns } from '../../../producers/run-validation.ts';
import { ScorestreamError } from '../../../src/kit/errors.ts';
import { wireRunEvent } from '../src/kit/contracts/fixtures.ts';

function invalid(action: () => unknown): InvalidRunError {
  try {
    action();
  } catch (error) {
    if (error instanceof InvalidRunError) return error;
    throw error;
  }
  throw new Error('expected an InvalidRunError');
}

describe('validateRuns', () => {
  it('returns the JSON to send and the parsed event for valid runs', () => {
    const [validated] = validateRuns([wireRunEvent()], { batch: false });
    expect(validated!.runId).toBe('run-1');
    expect(JSON.parse(validated!.value)).toEqual(wireRunEvent());
    expect(validated!.event.output[0]!.createdAt).toBeInstanceOf(Date);
  });

  it('accepts runs whose message dates are Date objects (the parsed form)', () => {
    const [first] = validateRuns([wireRunEvent()], { batch: false });
    const [again] = validateRuns([first!.event], { batch: false });
    expect(JSON.parse(again!.value).output[0].createdAt).toBe('2025-03-01T10:00:04.000Z');
  });

  it('lists every problem with its path for a single run', () => {
    const run = { ...wireRunEvent(), runId: '', timestamp: 'later' };
    const error = invalid(() => validateRuns([run], { batch: false }));
    expect(ScorestreamError.isInstance(error)).toBe(true);
    expect(error.code).toBe('invalid_run');
    expect(error.canRetry).toBe(false);
    expect(error.problems.map((problem) => problem.path)).toEqual(['runId', 'timestamp']);
    expect(error.message).toContain('nothing was sent');
    expect(error.message).toContain('  - runId: ');
    expect(error.message).toContain('  - timestamp: ');
  });

  it('names the run index and runId of each problem in a batch', () => {
    const bad = wireRunEvent();
    (bad.output[0]!.content.parts as unknown[])[1] = { type: 'bogus' };
    const error = invalid(() => validateRuns([wireRunEvent(), { ...bad, runId: 'run-2' }, { nope: true }], { batch: true }));
    expect(error.message).toMatch(/^2 of 3 runs are not valid AgentRunEvent v1s; nothing was sent/);
    expect(error.message).toContain('runs[1] (runId "run-2") output[0].content.parts[1].type: ');
    expect(error.message).toContain('runs[2] schemaVersion: ');
    expect(error.problems.filter((problem) => problem.index === 2).length).toBeGreaterThan(3);
    expect(error.problems.find((problem) => problem.index === 1)).toMatchObject({ runId: 'run-2', path: 'output[0].content.parts[1].type' });
  });

  it('reports runs that cannot be serialised instead of throwing a TypeError', () => {
    const error = invalid(() => validateRuns([{ ...wireRunEvent(), durationMs: 10n }, undefined], { batch: true }));
    expect(error.problems).toEqual([
      { index: 0, runId: 'run-1', path: '', message: expect.stringContaining('cannot be serialised to JSON') },
      { index: 1, path: '', message: expect.stringContaining('received nothing serialisable') },
    ]);
  });

  it('accepts an empty batch', () => {
    expect(validateRuns([], { batch: true })).toEqual([]);
  });
});
