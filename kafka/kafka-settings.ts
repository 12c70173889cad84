// Where and as whom a client connects: the config's `kafka` section (or the CLI's environment, as
// the same settings), and which client library the scoring path runs on. Every client of the edge
// (kafka-edge.ts) is made from these.
import type { KafkaClientName } from '../src/engine/config/config-types.ts';
import type { ResolvedConfig } from '../src/engine/config/resolve-config.ts';

export type KafkaSettings = Pick<ResolvedConfig['kafka'], 'clientId' | 'brokers' | 'ssl' | 'sasl'> & { readonly client?: KafkaClientName };
