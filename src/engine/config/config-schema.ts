// The zod schema of a deployment config: the one declaration of its shape, its defaults and its
// checks. The config types are derived from it (config-types.ts); parsing a config with it is what
// resolveConfig does after the environment's overrides. Scorer objects and functions cannot be
// described by JSON Schema, so they are checked by shape.
import type { LanguageModel } from 'ai';
import { z } from 'zod';
import { budgetsSchema, pricingSchema } from '../budget/budget-schema.ts';
import { compileParsedPredicate } from '../eligibility/compile-predicate.ts';
import { predicateSchemaFor } from '../eligibility/predicate-schema.ts';
import { samplingSchema } from '../eligibility/sampling-schema.ts';
import { escalateSchema } from '../escalation/escalation-schema.ts';
import { passCriterionSchema } from '../../kit/verdict/pass-criterion.ts';
import { alertsSchema } from '../monitors/alerts-schema.ts';
import { monitorSchema } from '../monitors/monitor-schema.ts';
import { BINDING_LEVELS } from '../../kit/scorer/binding-level.ts';
import { threadOptionsSchema, threadsSchema } from '../threads/threads-schema.ts';
import { evidenceSchema, redactionSchema } from '../data-handling/redaction-schema.ts';
import { RESCORE_REASONS } from '../../kit/contracts/rescore-request.ts';
import type { JudgeModelResolver } from '../../kit/judge/types.ts';
import { bindingJudgeSchema, judgeBatchSchema } from '../judge-batch/batch-schema.ts';
import { DEFAULT_TOPICS, DEFAULTS } from './defaults.ts';
import { inputSchema } from './input-schema.ts';
import { saslSchema } from './sasl-schema.ts';
import type { ScorerLike } from './scorer-like.ts';

const positiveInt = z.number().int().positive();

/**
 * How results reach Kafka. `at-least-once` (default): each record is published as soon as its
 * scorer finished and offsets are committed behind the acknowledged records, so a crash re-scores
 * (duplicates share a scoreId) but never loses. `exactly-once`: a partition's finished records and
 * its consumed offsets are committed in one Kafka transaction, so `read_committed` readers see each
 * score once; results become visible per commit interval instead of per scorer.
 */
export const deliveryModes = ['at-least-once', 'exactly-once'] as const;
/** The Kafka client library under the scoring path (kafka/kafka-transport.ts; docs/configuration.md). */
export const kafkaClients = ['kafkajs', 'platformatic'] as const;

/**
 * What a run whose propagated trace context is not sampled gets. `ignore` (default): it is scored
 * like any other — scores are the product, traces a view of it — and its score spans follow the
 * trace's decision (not recorded under a parent-based sampler), while its record still carries the
 * trace ids. `follow`: it is skipped (`trace_not_sampled`), so scoring coverage equals the sampling
 * rate. Counted either way (`scorestream.runs.trace_unsampled`).
 */
export const traceSamplingPolicies = ['ignore', 'follow'] as const;


const scorerSchema = z.custom<ScorerLike>(
  (value) =>
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { id?: unknown }).id === 'string' &&
    (value as { id: string }).id !== '' &&
    typeof (value as { run?: unknown }).run === 'function',
  { message: 'expected a scorer (an object with a non-empty string `id` and a `run()` method, e.g. from createScorer())' },
);

// The event is `unknown` here: a schema is a value and cannot take the config's `Event` type
// parameter, so config-types.ts lays `(event: Event) => ...` over the types derived from it.
const whenSchema = z.custom<(event: unknown) => boolean | Promise<boolean>>((value) => typeof value === 'function', {
  message: 'expected a function (event) => boolean',
});

export const bindingSchema = z
  .strictObject({
    scorer: scorerSchema,
    /** `thread`: the scorer scores whole conversations, not runs (docs/threads.md). Default `run`. */
    level: z.enum(BINDING_LEVELS, { error: `expected one of ${BINDING_LEVELS.map((level) => `'${level}'`).join(', ')}` }).optional(),
    /** When a thread is closed and what a resume does; only with level 'thread' (defaults: src/engine/threads/threads-schema.ts). */
    thread: threadOptionsSchema.optional(),
    /** Part of the deterministic scoreId: bump it when the scorer's logic changes. */
    version: z.string().min(1).optional(),
    sampling: samplingSchema.optional(),
    /** Declarative eligibility filter (the predicate DSL), checked at start-up. */
    filter: predicateSchemaFor().optional(),
    /** Function eligibility filter over the whole event, for what the DSL cannot say. */
    when: whenSchema.optional(),
    /**
     * Run only on the runs cheaper scorers of the same run send here, plus a `sample` judged anyway
     * (docs/spend-and-replay.md, escalation); those scorers then run first.
     */
    escalate: escalateSchema.optional(),
    /** Bound on one scorer run, steps and judge calls included (default 120 s; enforced within 5 ms after it). */
    timeoutMs: positiveInt.default(DEFAULTS.scorerTimeoutMs),
    /** What passing means: every scored record gets a verdict (src/kit/verdict/pass-criterion.ts; docs/alerts.md). */
    pass: passCriterionSchema.optional(),
    /** This binding's evidence level (default: the config's `evidence`; docs/data-handling.md). */
    evidence: evidenceSchema.optional(),
    /**
     * Score a run again when a person disagrees with this binding's judgement (docs/feedback.md,
     * re-scoring): `thumbs-down`, `correction`. Default none: feedback is measured, never acted on.
     */
    /** `{ mode: 'batch' }`: its judge calls wait on a provider's batch API at the batch price (docs/spend-and-replay.md, the batch tier). Default live. */
    judge: bindingJudgeSchema.optional(),
    rescoreOn: z
      .array(z.enum(RESCORE_REASONS, { error: `expected one of ${RESCORE_REASONS.map((reason) => `'${reason}'`).join(', ')}` }))
      .min(1, `expected at least one of ${RESCORE_REASONS.map((reason) => `'${reason}'`).join(', ')}, or leave rescoreOn out`)
      .optional(),
  })
  .superRefine((binding, context) => {
    if (binding.judge?.liveOnFailure !== undefined && binding.judge.mode !== 'batch') {
      context.addIssue({ code: 'custom', path: ['judge', 'liveOnFailure'], message: "liveOnFailure applies to judge mode 'batch' (a live judge's failures already go to the retry tiers); set mode: 'batch' or remove it" });
    }
    if (binding.judge?.mode === 'batch' && binding.level === 'thread') {
      context.addIssue({ code: 'custom', path: ['judge', 'mode'], message: "a thread binding (level: 'thread') judges live; the batch tier scores runs, so remove judge.mode or bind the scorer at run level" });
    }
    // Feedback names a run; a thread score is about a conversation, and thread feedback is not joined yet.
    if (binding.rescoreOn !== undefined && binding.level === 'thread') {
      context.addIssue({ code: 'custom', path: ['rescoreOn'], message: "rescoreOn applies to bindings that score runs; a thread binding (level: 'thread') cannot be re-scored on feedback yet, so remove it" });
    }
    // Labels are a classifier's choices: checked against the scorer's own list when it has one.
    const labels = binding.pass?.labels;
    if (labels === undefined) return;
    const choices = binding.scorer.choices;
    if (choices === undefined) {
      context.addIssue({ code: 'custom', path: ['pass', 'labels'], message: `scorer '${binding.scorer.id}' is not a classifier scorer of a choice question, so no label can pass; use atLeast/atMost on its score` });
      return;
    }
    labels.forEach((label, index) => {
      if (!choices.includes(label)) context.addIssue({ code: 'custom', path: ['pass', 'labels', index], message: `'${label}' is not a choice of scorer '${binding.scorer.id}' (${choices.join(', ')})` });
    });
  })
  .transform((binding) => ({
    ...binding,
    scorerId: binding.scorer.id,
    ...(binding.filter === undefined ? {} : { matchesFilter: compileParsedPredicate(binding.filter) }),
  }));

/**
 * TLS to the brokers: `true` (the system's CAs), or settings. `ca`, `cert` and `key` are PEM text;
 * the `*File` fields name PEM files read when the client is made (docs/security.md).
 * `servername`: the name expected in the brokers' certificates, when connecting through another one.
 */
export const tlsSchema = z.union([
  z.boolean(),
  z.strictObject({
    ca: z.union([z.string(), z.array(z.string())]).optional(),
    cert: z.string().optional(),
    key: z.string().optional(),
    caFile: z.string().min(1).optional(),
    certFile: z.string().min(1).optional(),
    keyFile: z.string().min(1).optional(),
    servername: z.string().min(1).optional(),
    rejectUnauthorized: z.boolean().optional(),
  }),
]);


const judgeModelSchema = z.custom<LanguageModel>(
  (value) => (typeof value === 'string' && value !== '') || (typeof value === 'object' && value !== null),
  { message: "expected a model id such as 'openai:gpt-4o-mini' (resolved through judge.models) or an AI SDK language model" },
);

const judgeModelResolverSchema = z.custom<JudgeModelResolver>(
  (value) => typeof value === 'object' && value !== null && typeof (value as { languageModel?: unknown }).languageModel === 'function',
  { message: 'expected a provider registry with languageModel(id), e.g. createProviderRegistry({...})' },
);

/**
 * Non-blocking retries (docs/delivery.md): a pair that failed for a transient reason is scored
 * again after `delaysMs[attempt - 1]` (the last delay repeats) through the retry topic, until
 * `maxAgeMs` after its first failure; then its `failed` record is final.
 */
export const retriesSchema = z.strictObject({
  /** Off: transient failures are published as `failed` at once, as before retry topics. */
  enabled: z.boolean().default(true),
  delaysMs: z.array(positiveInt).min(1, 'expected at least one delay').default([...DEFAULTS.retryDelaysMs]),
  maxAgeMs: positiveInt.default(DEFAULTS.retryMaxAgeMs),
});

// A section left out is parsed as `{}` (prefault), so its fields get their own defaults; a field set
// to undefined (say from an unset environment variable) counts as left out.
/**
 * Every topic name a deployment sets, with the names derived from the runs topic where left out
 * (src/engine/topology/ says what each topic is). `topicsSchema.parse({})` gives the default names.
 */
export const topicsSchema = z
  .strictObject({
    runs: z.string().min(1).default(DEFAULT_TOPICS.runs),
    results: z.string().min(1).default(DEFAULT_TOPICS.results),
    deadLetter: z.string().min(1).default(DEFAULT_TOPICS.deadLetter),
    decisions: z.string().min(1).optional(),
    /** The prefix of the retry tiers, `{retry}-<delay>` (default `{runs}-retry`; docs/delivery.md). */
    retry: z.string().min(1).optional(),
    /** The in-stream monitors' breach and recovered notices (`scorestream monitor`; docs/alerts.md). */
    alerts: z.string().min(1).default(DEFAULT_TOPICS.alerts),
    /** Where the feedback join asks for re-scores, read when a binding sets `rescoreOn` (default `{runs}-rescore`; docs/feedback.md). */
    rescore: z.string().min(1).optional(),
    /** Where each replay records the range it fixed when it started (default `{runs}-replays`, compacted; docs/spend-and-replay.md). */
    replays: z.string().min(1).optional(),
    /** People's feedback on scores, read by the feedback join (`scorestream agreement`; docs/feedback.md). */
    feedback: z.string().min(1).default(DEFAULT_TOPICS.feedback),
    /** The feedback join's agreement records, compacted (docs/feedback.md). */
    agreements: z.string().min(1).default(DEFAULT_TOPICS.agreements),
  })
  .prefault({})
  .transform((topics) => ({ ...topics, retry: topics.retry ?? `${topics.runs}${DEFAULTS.retryTopicSuffix}`, replays: topics.replays ?? `${topics.runs}${DEFAULTS.replaysTopicSuffix}`, rescore: topics.rescore ?? `${topics.runs}${DEFAULTS.rescoreTopicSuffix}` }));

export const configSchema = z.strictObject({
  kafka: z
    .strictObject({
      brokers: z
        .array(z.string().regex(/^[^\s:]+:\d+$/, 'expected host:port'))
        .min(1, 'expected at least one broker (host:port); set KAFKA_BROKERS')
        .prefault([]),
      clientId: z.string().min(1).default(DEFAULTS.clientId),
      client: z.enum(kafkaClients, { error: `expected one of ${kafkaClients.map((client) => `'${client}'`).join(', ')}` }).default(DEFAULTS.kafkaClient),
      ssl: tlsSchema.optional(),
      sasl: saslSchema.optional(),
    })
    .prefault({}),
  groupId: z.string().min(1).default(DEFAULTS.groupId),
  topics: topicsSchema,
  scorers: z
    .array(bindingSchema)
    .min(1, 'expected at least one scorer binding { scorer, sampling?, filter?, when?, version? }'),
  concurrency: z
    .strictObject({
      runsInFlight: positiveInt.default(DEFAULTS.runsInFlight),
      judgeCallsPerModel: positiveInt.default(DEFAULTS.judgeCallsPerModel),
    })
    .prefault({}),
  judge: z
    .strictObject({
      model: judgeModelSchema.optional(),
      models: judgeModelResolverSchema.optional(),
      /** Bound on one judge request (one HTTP attempt) inside its slot; default a quarter of the binding's timeoutMs, at most 30 s. */
      callTimeoutMs: positiveInt.optional(),
      /** The batch API of bindings whose judge mode is 'batch' (src/engine/judge-batch/batch-schema.ts). */
      batch: judgeBatchSchema.optional(),
    })
    .optional(),
  retries: retriesSchema.prefault({}),
  /** Judge budgets per rolling window (src/engine/budget/; docs/configuration.md). */
  budgets: budgetsSchema.default([]),
  /** The price table and the estimate of judge calls (src/engine/budget/prices.ts). */
  pricing: pricingSchema,
  shutdownTimeoutMs: positiveInt.default(DEFAULTS.shutdownTimeoutMs),
  maxMessageBytes: positiveInt.default(DEFAULTS.maxMessageBytes),
  /**
   * The largest record the service writes (its JSON; at most the output topics' max.message.bytes):
   * a larger score record sheds evidence, a larger dead letter keeps part of its value
   * (docs/delivery.md, record sizes).
   */
  maxRecordBytes: positiveInt.default(DEFAULTS.maxRecordBytes),
  /** Default 'at-least-once'; env SCORESTREAM_DELIVERY. */
  delivery: z.enum(deliveryModes, { error: `expected one of ${deliveryModes.map((mode) => `'${mode}'`).join(', ')}` }).default(DEFAULTS.delivery),
  /** How much evidence score records carry: 'full' (default), 'no-content', 'none'; env SCORESTREAM_EVIDENCE (docs/data-handling.md). */
  evidence: evidenceSchema.default(DEFAULTS.evidence),
  /** What is redacted from every record, span and log line: built-in patterns, your own, a hook; `false` for none. */
  redaction: redactionSchema.prefault({}),
  /** HTTP health endpoints for probes (docs/deployment.md): off unless a port is set; env SCORESTREAM_HEALTH_PORT, SCORESTREAM_HEALTH_HOST. */
  health: z
    .strictObject({
      /** 0 lets the system choose (tests). */
      port: z.number().int().min(0, 'expected a port from 0 to 65535').max(65535, 'expected a port from 0 to 65535').optional(),
      host: z.string().min(1).default(DEFAULTS.healthHost),
    })
    .prefault({}),
  /** Unsampled traces: scored (`ignore`, default) or skipped (`follow`); env SCORESTREAM_TRACE_SAMPLING. */
  traceSampling: z.enum(traceSamplingPolicies, { error: `expected one of ${traceSamplingPolicies.map((policy) => `'${policy}'`).join(', ')}` }).default(DEFAULTS.traceSampling),
  /** What the runs topic carries: run events (default) or a Collector's OTLP spans; env SCORESTREAM_INPUT_FORMAT / _ENCODING (input-schema.ts). */
  input: inputSchema,
  /** In-stream monitors over the results topic, evaluated by `scorestream monitor` (src/engine/monitors/; docs/alerts.md). */
  monitors: z.array(monitorSchema).default([]),
  /** How the monitors are evaluated and where else their notices go (a webhook). */
  alerts: alertsSchema,
  /** Thread scoring: where thread ids come from and the bounds of the thread state (docs/threads.md). */
  threads: threadsSchema,
});
