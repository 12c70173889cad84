// The data handling of a resolved config: each binding's evidence level (its own, else the
// config's), redaction of everything a record carries but its ids, decisions and dead letters
// redacted too, and one compiled handling per config.
import { describe, expect, it } from 'vitest';
import { parseScoreRecord } from '../../../../src/contracts/parse.ts';
import type { DeadLetter } from '../../../../src/contracts/dead-letter.ts';
import type { DecisionRecord } from '../../../../src/contracts/decision-record.ts';
import type { ScoreRecord } from '../../../../src/contracts/score-record.ts';
import { resolveConfig } from '../../../../src/config/resolve-config.ts';
import { createDataHandling, dataHandlingOf } from '../../../../src/data-handling/data-handling.ts';
import { createScorer } from '../../../../src/scorer/create-scorer.ts';

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

describe('dataHandlingOf', () => {
  const config = resolveConfig({
    kafka: { brokers: ['localhost:9092'] },
    evidence: 'no-content',
    scorers: [{ scorer: tone, evidence: 'full' }, { scorer: tone, version: '2' }, { scorer: length, evidence: 'none' }],
  });
  const handling = dataHandlingOf(config);

  it('gives each binding its evidence level: its own, else the config’s', () => {
    expect(handling.scoreRecord(recordOf('tone')).prompts).toEqual({ analyze: 'Rate: [redacted:email]' });
    expect(handling.scoreRecord(recordOf('tone', '2'))).toMatchObject({ evidence: 'no-content', prompts: {} });
    expect(handling.scoreRecord(recordOf('length')).evidence).toBe('none');
    // A scorer no longer bound (a retry's binding_removed record) gets the config's level.
    expect(handling.scoreRecord(recordOf('gone')).evidence).toBe('no-content');
  });

  it('redacts every string a record carries except the ids that key and join it', () => {
    const handled = handling.scoreRecord(recordOf('tone'));
    expect(parseScoreRecord(handled).success).toBe(true);
    expect(handled).toMatchObject({
      scoreId: `${address}-id`,
      runId: `run-of-${address}`,
      reason: 'mentions [redacted:email]',
      steps: { analyze: { quote: 'mail [redacted:email]' } },
      metadata: { tenantId: 'acme', tags: ['user:[redacted:email]'] },
    });
  });

  it('redacts decision details and dead-letter errors, keeping the dead letter’s original bytes', () => {
    const decision: DecisionRecord = { schemaVersion: 1, runId: 'r', scorerId: 'tone', decision: 'skipped', reason: 'predicate_error', detail: `when: no user ${address}`, source: { topic: 'runs', partition: 0, offset: '1' }, decidedAt: '2026-12-01T00:00:00.000Z' };
    expect(handling.decisionRecord(decision)).toEqual({ ...decision, detail: 'when: no user [redacted:email]' });
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
    const handled = handling.deadLetter(letter);
    expect(handled.error.message).toBe(`Expected property name or '}' in JSON at position 30: {"email": "[redacted:email]", `);
    expect(handled.value).toEqual({ encoding: 'utf8', data: value });
  });

  it('compiles once per config', () => {
    expect(dataHandlingOf(config)).toBe(handling);
    expect(createDataHandling(config)).not.toBe(handling);
  });

  it('with redaction off and full evidence, returns records as they are', () => {
    const off = dataHandlingOf(resolveConfig({ kafka: { brokers: ['localhost:9092'] }, redaction: { builtins: false }, scorers: [{ scorer: tone }] }));
    const record = recordOf('tone');
    expect(off.scoreRecord(record)).toBe(record);
  });
});
