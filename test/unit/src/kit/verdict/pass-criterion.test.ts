// The pass criterion: its verdicts at the edges of each form, and the config mistakes it refuses,
// each under the field it is about (through resolveConfig, as a user meets them).
import { describe, expect, it } from 'vitest';
import { Classifier } from '../../../../../src/kit/classifier/classifier.ts';
import { createClassifierScorer } from '../../../../../src/kit/classifier/classifier-scorer.ts';
import { ConfigError } from '../../../../../src/engine/config/config-error.ts';
import type { ScorestreamConfigInput } from '../../../../../src/engine/config/config-types.ts';
import { resolveConfig } from '../../../../../src/engine/config/resolve-config.ts';
import { createScorer } from '../../../../../src/kit/scorer/create-scorer.ts';
import { passCriterionSchema, verdictFor } from '../../../../../src/kit/verdict/pass-criterion.ts';
import { questions, scriptedDecisionModel, decisionResult } from '../classifier/fixtures.ts';

const lengthScorer = createScorer({ id: 'answer-length', description: 'd' }).generateScore(() => 1);
const toneScorer = createClassifierScorer({
  id: 'tone',
  classifier: new Classifier({ id: 'c', model: scriptedDecisionModel([decisionResult()]).model, questions }),
  question: 'tone',
  scores: { polite: 1, neutral: 0.5, rude: 0 },
  state: () => ({}),
});
const choice = (value: string) => ({ answer: { type: 'choice', choice: value } });

function problems(binding: Record<string, unknown>): { path: string; message: string }[] {
  try {
    resolveConfig({ kafka: { brokers: ['b:1'] }, scorers: [{ scorer: lengthScorer }, binding] } as ScorestreamConfigInput);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}

describe('verdictFor', () => {
  it('atLeast and atMost are inclusive, alone or together', () => {
    const atLeast = passCriterionSchema.parse({ atLeast: 0.7 });
    expect([0.69, 0.7, 1].map((score) => verdictFor(atLeast, score, undefined))).toEqual(['fail', 'pass', 'pass']);
    const atMost = passCriterionSchema.parse({ atMost: 0.2 });
    expect([0, 0.2, 0.21].map((score) => verdictFor(atMost, score, undefined))).toEqual(['pass', 'pass', 'fail']);
    const band = passCriterionSchema.parse({ atLeast: 0.4, atMost: 0.6 });
    expect([0.39, 0.4, 0.6, 0.61].map((score) => verdictFor(band, score, undefined))).toEqual(['fail', 'pass', 'pass', 'fail']);
  });

  it('a NaN score never passes', () => {
    expect(verdictFor(passCriterionSchema.parse({ atMost: 1 }), Number.NaN, undefined)).toBe('fail');
  });

  it('labels: the selected choice decides, whatever the score; no choice, no verdict', () => {
    const labels = passCriterionSchema.parse({ labels: ['polite', 'neutral'] });
    expect(verdictFor(labels, 0, choice('neutral'))).toBe('pass');
    expect(verdictFor(labels, 1, choice('rude'))).toBe('fail');
    expect(verdictFor(labels, 1, { answer: { type: 'boolean', probability: 1 } })).toBeUndefined();
    expect(verdictFor(labels, 1, undefined)).toBeUndefined();
  });
});

describe('pass in the config', () => {
  it('is kept on the resolved binding', () => {
    const config = resolveConfig({ kafka: { brokers: ['b:1'] }, scorers: [{ scorer: lengthScorer, pass: { atLeast: 0.7, objective: 0.95 } }, { scorer: toneScorer, pass: { labels: ['polite'] } }] });
    expect(config.scorers.map((binding) => binding.pass)).toEqual([{ atLeast: 0.7, objective: 0.95 }, { labels: ['polite'] }]);
  });

  it('refuses a criterion that says nothing, unknown keys, and contradictions, naming the field', () => {
    expect(problems({ scorer: lengthScorer, version: '2', pass: {} })).toEqual([{ path: 'scorers[1].pass', message: expect.stringContaining('say what passes') }]);
    expect(problems({ scorer: lengthScorer, version: '2', pass: { min: 0.5 } }).map((problem) => problem.path)).toContain('scorers[1].pass');
    expect(problems({ scorer: lengthScorer, version: '2', pass: { atLeast: 0.8, atMost: 0.2 } })).toEqual([{ path: 'scorers[1].pass.atLeast', message: expect.stringContaining('no score could pass') }]);
    expect(problems({ scorer: toneScorer, pass: { atLeast: 0.5, labels: ['polite'] } })).toEqual([{ path: 'scorers[1].pass.labels', message: expect.stringContaining('cannot be combined') }]);
    expect(problems({ scorer: lengthScorer, version: '2', pass: { atLeast: '0.7' } })).toEqual([{ path: 'scorers[1].pass.atLeast', message: 'atLeast must be a finite number' }]);
    expect(problems({ scorer: lengthScorer, version: '2', pass: { atLeast: Infinity } })).toEqual([{ path: 'scorers[1].pass.atLeast', message: 'atLeast must be a finite number' }]);
  });

  it('refuses an objective outside (0, 1)', () => {
    for (const objective of [0, 1, 95]) {
      expect(problems({ scorer: lengthScorer, version: '2', pass: { atLeast: 0.5, objective } })).toEqual([{ path: 'scorers[1].pass.objective', message: expect.stringContaining('objective must be above 0 and below 1') }]);
    }
  });

  it('labels only for a classifier scorer of a choice question, and only its choices', () => {
    expect(problems({ scorer: lengthScorer, version: '2', pass: { labels: ['good'] } })).toEqual([{ path: 'scorers[1].pass.labels', message: expect.stringContaining("scorer 'answer-length' is not a classifier scorer of a choice question") }]);
    expect(problems({ scorer: toneScorer, pass: { labels: ['polite', 'grumpy'] } })).toEqual([{ path: 'scorers[1].pass.labels[1]', message: "'grumpy' is not a choice of scorer 'tone' (polite, neutral, rude)" }]);
  });
});
