// What a deployment describes: where to read and write, which scorers run on which runs,
// and the limits that keep the service bounded. `defineConfig` takes this shape;
// `resolveConfig` validates it and fills in defaults (see resolve-config.ts).
import type { LanguageModel } from 'ai';

/** The parts of a scorer the service needs; every `createScorer(...)` result has them. */
export type ScorerLike = {
  readonly id: string;
  readonly name?: string;
  run(input: Record<string, unknown>, options?: Record<string, unknown>): Promise<unknown>;
};

export type SaslConfig = {
  mechanism: 'plain' | 'scram-sha-256' | 'scram-sha-512';
  username: string;
  password: string;
};

export type TlsConfig = boolean | { ca?: string | string[]; cert?: string; key?: string; rejectUnauthorized?: boolean };

/**
 * How results reach Kafka. `at-least-once` (default): each record is published as soon as its
 * scorer finished and offsets are committed behind the acknowledged records, so a crash re-scores
 * (duplicates share a scoreId) but never loses. `exactly-once`: a partition's finished records and
 * its consumed offsets are committed in one Kafka transaction, so `read_committed` readers see each
 * score once; results become visible per commit interval instead of per scorer.
 */
export type DeliveryMode = 'at-least-once' | 'exactly-once';

export type SamplingOption = { type: 'none' } | { type: 'ratio'; rate: number; salt?: string };

export type ScorerBindingInput<Event = unknown> = {
  scorer: ScorerLike;
  /** Part of the deterministic scoreId: bump it when the scorer's logic changes. */
  version?: string;
  sampling?: SamplingOption;
  /** Declarative eligibility filter (the predicate DSL), validated at start-up. */
  filter?: unknown;
  /** Function eligibility filter over the whole event, for what the DSL cannot say. */
  when?: (event: Event) => boolean | Promise<boolean>;
  /** Bound on one scorer run, steps and judge calls included (default 120 s; enforced within 5 ms after it). */
  timeoutMs?: number;
};

/** Resolves string model ids, e.g. the result of the AI SDK's createProviderRegistry(). */
export type ModelResolver = { languageModel(id: string): LanguageModel };

export type ScorestreamConfigInput<Event = unknown> = {
  kafka?: { brokers?: string[]; clientId?: string; ssl?: TlsConfig; sasl?: SaslConfig };
  groupId?: string;
  topics?: { runs?: string; results?: string; deadLetter?: string; decisions?: string };
  scorers: ScorerBindingInput<Event>[];
  concurrency?: { runsInFlight?: number; judgeCallsPerModel?: number };
  judge?: { model?: LanguageModel | string; models?: ModelResolver };
  shutdownTimeoutMs?: number;
  maxMessageBytes?: number;
  /** Default 'at-least-once'; env SCORESTREAM_DELIVERY. */
  delivery?: DeliveryMode;
};
