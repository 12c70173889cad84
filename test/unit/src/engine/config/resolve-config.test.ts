// resolveConfig: defaults, environment overrides, and validation that reports every problem
// at once, each under the field (or environment variable) it is about.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../../../src/engine/config/config-error.ts';
import type { ScorestreamConfigInput } from '../../../../../src/engine/config/config-types.ts';
import { defineConfig } from '../../../../../src/engine/config/define-config.ts';
import { DEFAULT_TOPICS, DEFAULTS } from '../../../../../src/engine/config/defaults.ts';
import { resolveConfig } from '../../../../../src/engine/config/resolve-config.ts';
import { createScorer } from '../../../../../src/kit/scorer/create-scorer.ts';

const lengthScorer = createScorer({ id: 'answer-length', description: 'How long the answer is' }).generateScore(() => 1);
const toneScorer = createScorer({ id: 'tone', description: 'How polite the answer is' }).generateScore(() => 0.5);

const minimal = (extra: Partial<ScorestreamConfigInput> = {}): ScorestreamConfigInput => ({
  kafka: { brokers: ['localhost:9092'] },
  scorers: [{ scorer: lengthScorer }],
  ...extra,
});

/** The ConfigError resolveConfig throws (fails the test when it does not throw one). */
function problemsOf(config: unknown, environment: Record<string, string> = {}): ConfigError {
  try {
    resolveConfig(config as ScorestreamConfigInput, { environment });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected resolveConfig to throw a ConfigError');
}

const pathsOf = (error: ConfigError) => error.problems.map((problem) => problem.path);

describe('defineConfig', () => {
  it('returns the config unchanged (typing only)', () => {
    const config = minimal();
    expect(defineConfig(config)).toBe(config);
  });
});

describe('resolveConfig', () => {
  describe('defaults', () => {
    it('fills in everything a deployment may leave out', () => {
      const resolved = resolveConfig(minimal());
      expect(resolved).toEqual({
        kafka: { brokers: ['localhost:9092'], clientId: 'scorestream', client: 'platformatic' },
        groupId: 'scorestream',
        topics: { runs: 'agent-runs', results: 'agent-scores', deadLetter: 'agent-runs-dlq', retry: 'agent-runs-retry', replays: 'agent-runs-replays', rescore: 'agent-runs-rescore', alerts: 'agent-score-alerts', feedback: 'agent-feedback', agreements: 'agent-score-agreements' },
        scorers: [{ scorer: lengthScorer, scorerId: 'answer-length', timeoutMs: 120_000 }],
        concurrency: { runsInFlight: 256, judgeCallsPerModel: 16 },
        budgets: [],
        pricing: { currency: 'USD', models: {}, batchRate: 0.5, estimate: { charsPerToken: 4, outputTokensPerCall: 256 } },
        shutdownTimeoutMs: 30_000,
        maxMessageBytes: 1_048_576,
        maxRecordBytes: 1_000_000,
        delivery: 'at-least-once',
        evidence: 'full',
        health: { host: '0.0.0.0' },
        redaction: { builtins: true, patterns: [] },
        traceSampling: 'ignore',
        retries: { enabled: true, delaysMs: [10_000, 60_000, 600_000, 3_600_000], maxAgeMs: 86_400_000 },
        input: { format: 'run-event' },
        monitors: [],
        alerts: { evaluateEvery: 10_000 },
        threads: { maxThreads: 10_000, maxStateBytes: 134_217_728, maxThreadBytes: 524_288, maxTurnBytes: 65_536, stateTtlMs: 604_800_000 },
        threadScorers: [],
      });
      expect(resolved.topics).toEqual({ ...DEFAULT_TOPICS, retry: `${DEFAULT_TOPICS.runs}-retry`, replays: `${DEFAULT_TOPICS.runs}-replays`, rescore: `${DEFAULT_TOPICS.runs}-rescore` });
      expect(resolved.concurrency.runsInFlight).toBe(DEFAULTS.runsInFlight);
    });

    it('keeps what the config sets and defaults only the rest', () => {
      const resolved = resolveConfig(
        minimal({
          kafka: { brokers: ['a:1', 'b:2'], clientId: 'scorer-eu' },
          groupId: 'scorers-eu',
          topics: { results: 'scores-eu', decisions: 'decisions-eu' },
          concurrency: { judgeCallsPerModel: 4 },
          shutdownTimeoutMs: 5000,
          maxMessageBytes: 2048,
        }),
      );
      expect(resolved.kafka).toEqual({ brokers: ['a:1', 'b:2'], clientId: 'scorer-eu', client: 'platformatic' });
      expect(resolved.groupId).toBe('scorers-eu');
      expect(resolved.topics).toEqual({ runs: 'agent-runs', results: 'scores-eu', deadLetter: 'agent-runs-dlq', decisions: 'decisions-eu', retry: 'agent-runs-retry', replays: 'agent-runs-replays', rescore: 'agent-runs-rescore', alerts: 'agent-score-alerts', feedback: 'agent-feedback', agreements: 'agent-score-agreements' });
      expect(resolved.concurrency).toEqual({ runsInFlight: 256, judgeCallsPerModel: 4 });
      expect(resolved.shutdownTimeoutMs).toBe(5000);
      expect(resolved.maxMessageBytes).toBe(2048);
    });

    it('retries: each field defaults alone; a delay list must not be empty', () => {
      expect(resolveConfig(minimal({ retries: { delaysMs: [5] } })).retries).toEqual({ enabled: true, delaysMs: [5], maxAgeMs: 86_400_000 });
      expect(resolveConfig(minimal({ retries: { enabled: false } })).retries.enabled).toBe(false);
      expect(pathsOf(problemsOf(minimal({ retries: { delaysMs: [] } })))).toEqual(['retries.delaysMs']);
      expect(pathsOf(problemsOf(minimal({ retries: { maxAgeMs: 0 } })))).toEqual(['retries.maxAgeMs']);
    });

    it('treats optional fields set to undefined (e.g. from an unset env variable) as left out', () => {
      const resolved = resolveConfig(
        minimal({
          kafka: { brokers: ['a:1'], clientId: undefined },
          topics: { runs: undefined, results: 'scores' },
          concurrency: { runsInFlight: undefined, judgeCallsPerModel: 2 },
          shutdownTimeoutMs: undefined,
        }),
      );
      expect(resolved.kafka.clientId).toBe('scorestream');
      expect(resolved.topics).toEqual({ runs: 'agent-runs', results: 'scores', deadLetter: 'agent-runs-dlq', retry: 'agent-runs-retry', replays: 'agent-runs-replays', rescore: 'agent-runs-rescore', alerts: 'agent-score-alerts', feedback: 'agent-feedback', agreements: 'agent-score-agreements' });
      expect(resolved.concurrency).toEqual({ runsInFlight: 256, judgeCallsPerModel: 2 });
      expect(resolved.shutdownTimeoutMs).toBe(30_000);
    });

    it('resolves each binding: id from the scorer, version, sampling, compiled filter, when, timeout', () => {
      const when = () => true;
      const filter = { op: 'eq', left: { path: 'requestContext.tier' }, right: { literal: 'gold' } };
      const resolved = resolveConfig(
        minimal({
          scorers: [
            { scorer: lengthScorer, version: '2', sampling: { type: 'ratio', rate: 0.25, salt: 'exp-1' }, filter, when, timeoutMs: 500 },
            { scorer: toneScorer, sampling: { type: 'none' } },
          ],
        }),
      );
      const [first, second] = resolved.scorers;
      expect(first).toMatchObject({ scorerId: 'answer-length', version: '2', sampling: { type: 'ratio', rate: 0.25, salt: 'exp-1' }, filter, when, timeoutMs: 500 });
      expect(first!.matchesFilter?.({ requestContext: { tier: 'gold' } })).toBe(true);
      expect(first!.matchesFilter?.({ requestContext: { tier: 'free' } })).toBe(false);
      expect(second).toEqual({ scorer: toneScorer, scorerId: 'tone', sampling: { type: 'none' }, timeoutMs: DEFAULTS.scorerTimeoutMs });
    });

    it('keeps a judge model resolver', () => {
      const models = { languageModel: () => 'model' as never };
      expect(resolveConfig(minimal({ judge: { models, model: 'openai:gpt-4o-mini' } })).judge).toEqual({ models, model: 'openai:gpt-4o-mini' });
    });
  });

  describe('environment overrides', () => {
    const resolveWith = (environment: Record<string, string>, config = minimal()) => resolveConfig(config, { environment });

    it('KAFKA_BROKERS replaces the brokers (comma-separated, spaces and empty entries ignored)', () => {
      expect(resolveWith({ KAFKA_BROKERS: ' k1:9092, k2:9093 ,,' }).kafka.brokers).toEqual(['k1:9092', 'k2:9093']);
    });

    it('KAFKA_BROKERS alone is enough when the config names no brokers', () => {
      expect(resolveWith({ KAFKA_BROKERS: 'k1:9092' }, { scorers: [{ scorer: lengthScorer }] }).kafka.brokers).toEqual(['k1:9092']);
    });

    it('SCORESTREAM_CLIENT_ID and SCORESTREAM_GROUP_ID', () => {
      const resolved = resolveWith({ SCORESTREAM_CLIENT_ID: 'client-eu', SCORESTREAM_GROUP_ID: 'group-eu' }, minimal({ groupId: 'from-file' }));
      expect(resolved.kafka.clientId).toBe('client-eu');
      expect(resolved.groupId).toBe('group-eu');
    });

    it('SCORESTREAM_TOPIC_* replace each topic', () => {
      const resolved = resolveWith(
        {
          SCORESTREAM_TOPIC_RUNS: 'runs-eu',
          SCORESTREAM_TOPIC_RESULTS: 'scores-eu',
          SCORESTREAM_TOPIC_DEAD_LETTER: 'dlq-eu',
          SCORESTREAM_TOPIC_DECISIONS: 'decisions-eu',
          SCORESTREAM_TOPIC_ALERTS: 'alerts-eu',
          SCORESTREAM_TOPIC_FEEDBACK: 'feedback-eu',
          SCORESTREAM_TOPIC_AGREEMENTS: 'agreements-eu',
        },
        minimal({ topics: { runs: 'from-file' } }),
      );
      expect(resolved.topics).toEqual({ runs: 'runs-eu', results: 'scores-eu', deadLetter: 'dlq-eu', decisions: 'decisions-eu', retry: 'runs-eu-retry', replays: 'runs-eu-replays', rescore: 'runs-eu-rescore', alerts: 'alerts-eu', feedback: 'feedback-eu', agreements: 'agreements-eu' });
    });

    it('SCORESTREAM_RUNS_IN_FLIGHT, SCORESTREAM_JUDGE_CONCURRENCY and SCORESTREAM_SHUTDOWN_TIMEOUT_MS', () => {
      const resolved = resolveWith(
        { SCORESTREAM_RUNS_IN_FLIGHT: '64', SCORESTREAM_JUDGE_CONCURRENCY: ' 3 ', SCORESTREAM_SHUTDOWN_TIMEOUT_MS: '9000' },
        minimal({ concurrency: { runsInFlight: 8, judgeCallsPerModel: 8 }, shutdownTimeoutMs: 1 }),
      );
      expect(resolved.concurrency).toEqual({ runsInFlight: 64, judgeCallsPerModel: 3 });
      expect(resolved.shutdownTimeoutMs).toBe(9000);
    });

    it('SCORESTREAM_JUDGE_CALL_TIMEOUT_MS sets judge.callTimeoutMs, keeping the judge section of the config', () => {
      const models = { languageModel: () => 'unused' };
      const resolved = resolveWith({ SCORESTREAM_JUDGE_CALL_TIMEOUT_MS: '2000' }, minimal({ judge: { models, callTimeoutMs: 30_000 } }));
      expect(resolved.judge).toEqual({ models, callTimeoutMs: 2000 });
    });

    it('SCORESTREAM_TOPIC_RETRY names the retry tiers’ prefix, SCORESTREAM_TOPIC_REPLAYS the replays topic', () => {
      expect(resolveWith({ SCORESTREAM_TOPIC_RETRY: 'pairs-retry' }).topics.retry).toBe('pairs-retry');
      expect(resolveWith({ SCORESTREAM_TOPIC_REPLAYS: 'backfills' }).topics.replays).toBe('backfills');
      expect(resolveWith({ SCORESTREAM_TOPIC_RESCORE: 'rescores-eu' }).topics.rescore).toBe('rescores-eu');
    });

    it('blank variables are ignored', () => {
      const resolved = resolveWith({ KAFKA_BROKERS: '  ', SCORESTREAM_GROUP_ID: '', SCORESTREAM_RUNS_IN_FLIGHT: ' ' });
      expect(resolved.kafka.brokers).toEqual(['localhost:9092']);
      expect(resolved.groupId).toBe('scorestream');
      expect(resolved.concurrency.runsInFlight).toBe(256);
    });

    it('KAFKA_SASL_MECHANISM, _USERNAME and _PASSWORD set SASL (mechanism case-insensitive)', () => {
      const resolved = resolveWith({ KAFKA_SASL_MECHANISM: 'SCRAM-SHA-512', KAFKA_SASL_USERNAME: 'svc', KAFKA_SASL_PASSWORD: ' p@ss word ' });
      // The password is taken as given: spaces can be part of it.
      expect(resolved.kafka.sasl).toEqual({ mechanism: 'scram-sha-512', username: 'svc', password: ' p@ss word ' });
    });

    it('KAFKA_SASL_PASSWORD alone supplies the secret for SASL settings in the config', () => {
      const config = minimal({ kafka: { brokers: ['b:9092'], sasl: { mechanism: 'plain', username: 'svc', password: 'placeholder' } } });
      expect(resolveWith({ KAFKA_SASL_PASSWORD: 'from-vault' }, config).kafka.sasl).toEqual({ mechanism: 'plain', username: 'svc', password: 'from-vault' });
    });

    it('KAFKA_SASL_MECHANISM keeps the username of the config', () => {
      const config = minimal({ kafka: { brokers: ['b:9092'], sasl: { mechanism: 'plain', username: 'svc', password: 'secret' } } });
      expect(resolveWith({ KAFKA_SASL_MECHANISM: 'scram-sha-256' }, config).kafka.sasl).toEqual({ mechanism: 'scram-sha-256', username: 'svc', password: 'secret' });
    });

    it('KAFKA_SSL turns TLS on or off', () => {
      for (const value of ['true', 'TRUE', '1', 'yes']) expect(resolveWith({ KAFKA_SSL: value }).kafka.ssl, value).toBe(true);
      for (const value of ['false', 'False', '0', 'no']) expect(resolveWith({ KAFKA_SSL: value }, minimal({ kafka: { brokers: ['b:1'], ssl: true } })).kafka.ssl, value).toBe(false);
    });

    it('KAFKA_SSL=true keeps the TLS settings (CA, client certificate) of the config', () => {
      const ssl = { ca: 'PEM', rejectUnauthorized: true };
      expect(resolveWith({ KAFKA_SSL: 'true' }, minimal({ kafka: { brokers: ['b:1'], ssl } })).kafka.ssl).toEqual(ssl);
    });

    it('reports a KAFKA_SSL value that is not a boolean against the variable', () => {
      const error = problemsOf(minimal(), { KAFKA_SSL: 'enabled' });
      expect(error.problems).toEqual([{ path: 'env KAFKA_SSL', message: expect.stringContaining("'enabled'") }]);
    });

    it.each(['SCORESTREAM_RUNS_IN_FLIGHT', 'SCORESTREAM_JUDGE_CONCURRENCY', 'SCORESTREAM_SHUTDOWN_TIMEOUT_MS', 'SCORESTREAM_JUDGE_CALL_TIMEOUT_MS'])('reports a bad %s against the variable', (name) => {
      for (const value of ['many', '0', '-2', '1.5', '12abc']) {
        const error = problemsOf(minimal(), { [name]: value });
        expect(error.problems).toEqual([{ path: `env ${name}`, message: `expected a positive integer, got '${value}'` }]);
        expect(error.message).toContain(`env ${name}: expected a positive integer, got '${value}'`);
      }
    });

    it('reports a bad broker from KAFKA_BROKERS with its position', () => {
      expect(pathsOf(problemsOf(minimal(), { KAFKA_BROKERS: 'good:9092,no-port' }))).toEqual(['kafka.brokers[1]']);
    });

    it('reports an unknown KAFKA_SASL_MECHANISM and a missing username against the SASL fields', () => {
      expect(pathsOf(problemsOf(minimal(), { KAFKA_SASL_MECHANISM: 'gssapi', KAFKA_SASL_PASSWORD: 'secret' }))).toEqual(['kafka.sasl.mechanism']);
      expect(pathsOf(problemsOf(minimal(), { KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_PASSWORD: 'secret' }))).toEqual(['kafka.sasl.username']);
    });

    it('reads OAUTHBEARER from KAFKA_SASL_OAUTHBEARER_*, and says what is missing', () => {
      const missing = problemsOf(minimal(), { KAFKA_SASL_MECHANISM: 'OAUTHBEARER' });
      expect(pathsOf(missing).sort()).toEqual(['kafka.sasl.clientId', 'kafka.sasl.clientSecret', 'kafka.sasl.tokenEndpointUrl']);
      const config = resolveWith({
        KAFKA_BROKERS: 'k:1',
        KAFKA_SASL_MECHANISM: 'oauthbearer',
        KAFKA_SASL_OAUTHBEARER_TOKEN_ENDPOINT_URL: 'https://idp.example.com/oauth2/token',
        KAFKA_SASL_OAUTHBEARER_CLIENT_ID: 'scorestream',
        KAFKA_SASL_OAUTHBEARER_CLIENT_SECRET: ' s3cret ',
        KAFKA_SASL_OAUTHBEARER_SCOPE: 'kafka',
      });
      expect(config.kafka.sasl).toEqual({ mechanism: 'oauthbearer', tokenEndpointUrl: 'https://idp.example.com/oauth2/token', clientId: 'scorestream', clientSecret: ' s3cret ', scope: 'kafka' });
      const both = problemsOf(minimal(), { KAFKA_SASL_MECHANISM: 'oauthbearer', KAFKA_SASL_OAUTHBEARER_TOKEN_ENDPOINT_URL: 'ftp://idp/token', KAFKA_SASL_OAUTHBEARER_CLIENT_ID: 'c', KAFKA_SASL_OAUTHBEARER_CLIENT_SECRET: 's', KAFKA_SASL_OAUTHBEARER_CLIENT_SECRET_FILE: '/run/secret' });
      expect(pathsOf(both).sort()).toEqual(['kafka.sasl.clientSecret', 'kafka.sasl.tokenEndpointUrl']);
    });

    it('does not change the config object it was given', () => {
      const config = minimal({ topics: { runs: 'from-file' } });
      const copy = structuredClone({ ...config, scorers: [] });
      resolveWith({ KAFKA_BROKERS: 'k:1', SCORESTREAM_TOPIC_RUNS: 'env', SCORESTREAM_RUNS_IN_FLIGHT: '2', KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: 'p' }, config);
      expect({ ...config, scorers: [] }).toEqual(copy);
    });
  });

  describe('problems', () => {
    it('reports every problem at once, each naming its field, and ends with what to do', () => {
      const error = problemsOf({
        kafka: { brokers: ['no-port-here'] },
        concurrency: { runsInFlight: 0 },
        scorers: [
          { scorer: lengthScorer, filter: { op: 'eq', left: { path: 'input.text' }, right: { literal: 'x' } } },
          { scorer: toneScorer, sampling: { type: 'ratio', rate: 1.5 } },
        ],
      });
      // A filter's problem is reported at its place inside the filter.
      expect(pathsOf(error).sort()).toEqual(['concurrency.runsInFlight', 'kafka.brokers[0]', 'scorers[0].filter.left.path', 'scorers[1].sampling.rate']);
      const byPath = Object.fromEntries(error.problems.map((problem) => [problem.path, problem.message]));
      expect(byPath['kafka.brokers[0]']).toBe('expected host:port');
      expect(byPath['scorers[0].filter.left.path']).toContain('"input.text"');
      expect(byPath['scorers[0].filter.left.path']).toContain('requestContext');
      expect(byPath['scorers[1].sampling.rate']).toBe('rate must be a number from 0 to 1 (e.g. 0.1 scores 10% of runs), got 1.5');
      expect(error.code).toBe('invalid_config');
      expect(error.canRetry).toBe(false);
      expect(error.message.startsWith('4 problem(s) in the Scorestream config:\n')).toBe(true);
      for (const path of pathsOf(error)) expect(error.message).toContain(`\n  - ${path}: `);
      expect(error.message.trimEnd().endsWith('Fix these fields (or the environment variables that override them) and start again.')).toBe(true);
    });

    it('names the config file when given one', () => {
      expect(() => resolveConfig({ scorers: [] }, { source: 'scorestream.config.ts' })).toThrow(/in the Scorestream config \(scorestream\.config\.ts\)/);
    });

    it('mixes environment and file problems in one report', () => {
      const error = problemsOf({ kafka: { brokers: [] }, scorers: [{ scorer: lengthScorer, timeoutMs: -1 }] }, { SCORESTREAM_RUNS_IN_FLIGHT: 'lots' });
      expect(pathsOf(error).sort()).toEqual(['env SCORESTREAM_RUNS_IN_FLIGHT', 'kafka.brokers', 'scorers[0].timeoutMs']);
      expect(error.problems.find((problem) => problem.path === 'kafka.brokers')?.message).toContain('KAFKA_BROKERS');
    });

    it.each([
      ['a string', 'toxicity'],
      ['an object without run()', { id: 'toxicity' }],
      ['an object with an empty id', { id: '', run: async () => ({}) }],
      ['a builder function', createScorer],
      ['null', null],
    ])('reports %s in `scorer` as not a scorer', (_label, scorer) => {
      const error = problemsOf({ kafka: { brokers: ['b:1'] }, scorers: [{ scorer: lengthScorer }, { scorer }] });
      expect(error.problems).toEqual([{ path: 'scorers[1].scorer', message: expect.stringContaining('expected a scorer') }]);
    });

    it('still validates the filter of a binding whose scorer is wrong', () => {
      const error = problemsOf({ kafka: { brokers: ['b:1'] }, scorers: [{ scorer: 'toxicity', filter: { op: 'exists', path: 'output' } }] });
      expect(pathsOf(error).sort()).toEqual(['scorers[0].filter.path', 'scorers[0].scorer']);
    });

    it('reports every problem of a filter, each at its place, with what to write instead', () => {
      const filter = { op: 'and', args: [{ op: 'equals', left: { path: 'entity.id' } }, { op: 'in', value: { path: 'metadata.env' }, set: [] }] };
      const error = problemsOf({ kafka: { brokers: ['b:1'] }, scorers: [{ scorer: lengthScorer, filter }] });
      expect(error.problems).toEqual([
        { path: 'scorers[0].filter.args[0].op', message: expect.stringContaining('unknown operator "equals"; use one of: eq, ne') },
        { path: 'scorers[0].filter.args[1].set', message: 'must be a non-empty array of literals, got an empty array' },
      ]);
    });

    it('reports the same scorer bound twice also when another binding is wrong', () => {
      const error = problemsOf(minimal({ scorers: [{ scorer: lengthScorer }, { scorer: lengthScorer }, { scorer: 'tone' as never }] }));
      expect(pathsOf(error).sort()).toEqual(['scorers[1]', 'scorers[2].scorer']);
    });

    it('reports the same scorer bound twice (same version) against the later binding', () => {
      const error = problemsOf(minimal({ scorers: [{ scorer: lengthScorer }, { scorer: toneScorer }, { scorer: lengthScorer }] }));
      expect(error.problems).toEqual([{ path: 'scorers[2]', message: "scorer 'answer-length' is already bound at scorers[0]; give one of them a different version" }]);
      const versioned = problemsOf(minimal({ scorers: [{ scorer: lengthScorer, version: '2' }, { scorer: lengthScorer, version: '2' }] }));
      expect(versioned.problems[0]?.message).toContain("version '2'");
    });

    it('accepts the same scorer under different versions', () => {
      const resolved = resolveConfig(minimal({ scorers: [{ scorer: lengthScorer }, { scorer: lengthScorer, version: '2' }] }));
      expect(resolved.scorers.map((binding) => binding.version)).toEqual([undefined, '2']);
    });

    it('reports unknown keys, so a typo is not silently ignored', () => {
      const error = problemsOf({ kafka: { brokers: ['b:1'], broker: 'x' }, scorers: [{ scorer: lengthScorer, sample: { type: 'none' } }], topic: {} });
      expect(pathsOf(error).sort()).toEqual(['', 'kafka', 'scorers[0]']);
      expect(error.message).toContain('(root)');
    });

    it('reports a config with no scorers', () => {
      expect(problemsOf({ kafka: { brokers: ['b:1'] }, scorers: [] }).problems).toEqual([{ path: 'scorers', message: expect.stringContaining('at least one scorer binding') }]);
      expect(pathsOf(problemsOf({ kafka: { brokers: ['b:1'] } }))).toEqual(['scorers']);
    });

    it('reports scorers written as a keyed object (Mastra’s bindings shape) instead of crashing', () => {
      const error = problemsOf({ kafka: { brokers: ['b:1'] }, scorers: { length: { scorer: lengthScorer } } });
      expect(pathsOf(error)).toEqual(['scorers']);
    });

    it.each([
      ['runsInFlight: 0', { concurrency: { runsInFlight: 0 } }, 'concurrency.runsInFlight'],
      ['judgeCallsPerModel: 1.5', { concurrency: { judgeCallsPerModel: 1.5 } }, 'concurrency.judgeCallsPerModel'],
      ['an empty groupId', { groupId: '' }, 'groupId'],
      ['an empty topic', { topics: { results: '' } }, 'topics.results'],
      ['shutdownTimeoutMs: -5', { shutdownTimeoutMs: -5 }, 'shutdownTimeoutMs'],
      ['maxMessageBytes as a string', { maxMessageBytes: '1MB' }, 'maxMessageBytes'],
      ['an unknown SASL mechanism', { kafka: { brokers: ['b:1'], sasl: { mechanism: 'gssapi', username: 'u', password: 'p' } } }, 'kafka.sasl.mechanism'],
      ['a judge registry without languageModel()', { judge: { models: {} } }, 'judge.models'],
      ['a judge model that is neither an id nor a model', { judge: { model: 42 } }, 'judge.model'],
      ['an empty judge model id', { judge: { model: '' } }, 'judge.model'],
      // null is a value, not a field left out: only undefined takes the default.
      ['a null groupId', { groupId: null }, 'groupId'],
      ['a null shutdownTimeoutMs', { shutdownTimeoutMs: null }, 'shutdownTimeoutMs'],
      ['a null delivery', { delivery: null }, 'delivery'],
      ['when that is not a function', { scorers: [{ scorer: lengthScorer, when: true }] }, 'scorers[0].when'],
      ['an unknown sampling type', { scorers: [{ scorer: lengthScorer, sampling: { type: 'random', rate: 0.5 } }] }, 'scorers[0].sampling.type'],
      ['an empty sampling salt', { scorers: [{ scorer: lengthScorer, sampling: { type: 'ratio', rate: 0.5, salt: '' } }] }, 'scorers[0].sampling.salt'],
    ])('reports %s under its path', (_label, override, path) => {
      expect(pathsOf(problemsOf({ ...minimal(), ...override }))).toEqual([path]);
    });

    it.each([
      ['kafka', 'localhost:9092'],
      ['topics', ['agent-runs']],
      ['concurrency', 8],
    ])('reports a %s section that is not an object under its name, environment or not', (section, value) => {
      const environments: Record<string, string>[] = [{}, { KAFKA_BROKERS: 'k:1', SCORESTREAM_TOPIC_RUNS: 'r', SCORESTREAM_RUNS_IN_FLIGHT: '2' }];
      for (const environment of environments) {
        const error = problemsOf({ ...minimal(), [section]: value }, environment);
        expect(error.problems).toEqual([{ path: section, message: expect.stringContaining('expected object') }]);
      }
    });

    it('rejects something that is not an object', () => {
      for (const value of [undefined, null, 'config']) {
        expect(problemsOf(value).problems).toEqual([{ path: '', message: expect.stringContaining('defineConfig') }]);
      }
    });
  });
});
