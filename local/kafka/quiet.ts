// Keeps kafkajs quiet where we own the client. kafkajs 2.2.4 on Node 24 schedules a negative
// timeout on every connection (tulios/kafkajs#1751, harmless: Node clamps it to 1 ms) and Node
// prints a TimeoutNegativeWarning for it; and it warns about its v2 partitioner change on every
// producer. Neither tells our users anything, so both are silenced here, and nothing else.
import { Kafka, logLevel } from 'kafkajs';
import type { KafkaConfig } from 'kafkajs';

let silenced = false;

/** Drops Node's TimeoutNegativeWarning (only that one) and kafkajs' partitioner notice. Idempotent. */
export function silenceKafkajsWarnings(): void {
  if (silenced) return;
  silenced = true;
  process.env.KAFKAJS_NO_PARTITIONER_WARNING ??= '1';
  const emitWarning = process.emitWarning.bind(process) as (...args: unknown[]) => void;
  process.emitWarning = ((warning: unknown, ...rest: unknown[]) => {
    const type = typeof rest[0] === 'string' ? rest[0] : (rest[0] as { type?: string } | undefined)?.type;
    const name = warning instanceof Error ? warning.name : type;
    if (name === 'TimeoutNegativeWarning') return;
    emitWarning(warning, ...rest);
  }) as typeof process.emitWarning;
}

/**
 * A kafkajs client that logs nothing (or only errors) and whose Node warnings are silenced.
 * kafkajs itself lets KAFKAJS_LOG_LEVEL (error, warn, info, debug) override the level when debugging.
 */
export function quietKafka(config: KafkaConfig, level: 'nothing' | 'error' = 'nothing'): Kafka {
  silenceKafkajsWarnings();
  return new Kafka({ logLevel: level === 'nothing' ? logLevel.NOTHING : logLevel.ERROR, ...config });
}
