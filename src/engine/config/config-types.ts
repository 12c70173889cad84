// The types of a deployment config, derived from its schema (config-schema.ts): what a config file
// writes (`z.input`: fields with defaults are optional) and what the service runs on (`z.output`,
// what resolveConfig returns). One part is laid over the derived types by hand: a binding's `when`
// takes the config's `Event`, and a schema, being a value, cannot take a type parameter.
import type { z } from 'zod';
import type { bindingSchema, configSchema, deliveryModes, kafkaClients, tlsSchema, traceSamplingPolicies } from './config-schema.ts';
import type { saslSchema } from './sasl-schema.ts';

import type { ThreadOptions } from '../threads/threads-schema.ts';

export type { ScorerLike } from './scorer-like.ts';

/** How results reach Kafka: see `deliveryModes` in config-schema.ts. */
export type DeliveryMode = (typeof deliveryModes)[number];
/** Which Kafka client library the scoring path runs on: see `kafkaClients` in config-schema.ts. */
export type KafkaClientName = (typeof kafkaClients)[number];
/** Whether unsampled traces are scored: see `traceSamplingPolicies` in config-schema.ts. */
export type TraceSamplingPolicy = (typeof traceSamplingPolicies)[number];
/** A binding's `sampling`: the eligibility module's schema (sampling-schema.ts) is its one declaration. */
export type { SamplingConfig as SamplingOption } from '../eligibility/sampling-schema.ts';
export type SaslConfig = z.output<typeof saslSchema>;
export type TlsConfig = z.output<typeof tlsSchema>;

/** Shows a derived type as one object in editors rather than as `Omit<...> & {...}`. */
type Flatten<T> = { [Key in keyof T]: T[Key] } & {};

type WithEventOf<Binding, Event> = Flatten<Omit<Binding, 'when'> & { when?: (event: Event) => boolean | Promise<boolean> }>;

/** One entry of `scorers` as a config writes it. */
export type ScorerBindingInput<Event = unknown> = WithEventOf<z.input<typeof bindingSchema>, Event>;

/** A binding as the service runs it: the scorer's id, the timeout defaulted, the filter compiled. */
export type ResolvedBinding<Event = unknown> = WithEventOf<z.output<typeof bindingSchema>, Event>;

/** A binding with `level: 'thread'` as the service runs it: its thread options defaulted (docs/threads.md). */
export type ResolvedThreadBinding<Event = unknown> = Flatten<Omit<ResolvedBinding<Event>, 'level' | 'thread'> & { level: 'thread'; thread: ThreadOptions }>;

/** What `defineConfig` takes: everything but `scorers` has a default. */
export type ScorestreamConfigInput<Event = unknown> = Flatten<Omit<z.input<typeof configSchema>, 'scorers'> & { scorers: ScorerBindingInput<Event>[] }>;

/**
 * The validated, defaulted config the service runs on (resolveConfig): the bindings of `level:
 * 'thread'` are taken out of `scorers` into `threadScorers`, so the run path never sees them.
 */
export type ResolvedConfig<Event = unknown> = Flatten<Omit<z.output<typeof configSchema>, 'scorers'> & { scorers: ResolvedBinding<Event>[]; threadScorers: ResolvedThreadBinding<Event>[] }>;
