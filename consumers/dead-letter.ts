// Dead letters: a consumed message that cannot be scored is parked in the dead-letter topic as
// it came (docs/contracts.md, the dead letter), so its partition keeps moving and nothing is
// lost. One builder and one behaviour for both ways a message gets there — it does not decode
// (processRunMessage), or processing it threw, a bug (the scoring consumer, through
// deadLetterUnexpected): the record keeps the message's key, carries the origin header (the loop
// guard) and is published until acknowledged, like every record we publish; only the hard stop
// ends that, and then the message's offset stays uncommitted.
import type { KafkaMessage } from 'kafkajs';
import { buildDeadLetter } from '../src/contracts/build-dead-letter.ts';
import type { RawHeaders } from '../src/contracts/build-dead-letter.ts';
import type { Source } from '../src/contracts/common.ts';
import type { DeadLetter } from '../src/contracts/dead-letter.ts';
import { dataHandlingOf } from '../src/data-handling/data-handling.ts';
import type { OutgoingRecord } from '../producers/record-publisher.ts';
import type { DeadLetterReason } from './decode-run-message.ts';
import { originHeaders } from './loop-guard.ts';
import type { MessageContext } from './message-context.ts';
import { publishUntilAcknowledged } from './publish-until-acknowledged.ts';
import type { MessageOutput } from './record-sink.ts';

type DeadLetterContext = Pick<MessageContext, 'config' | 'stats' | 'logger' | 'now' | 'hardStop' | 'publishRetry'>;

/** The message's own timestamp (epoch ms, as kafkajs reports it) as an ISO time; none when it is not a time. */
function messageTime(message: KafkaMessage): string | undefined {
  const time = new Date(Number(message.timestamp));
  return Number.isNaN(time.getTime()) ? undefined : time.toISOString();
}

/**
 * The dead-letter record of a message: its key, value and headers as received, where it came from
 * and why. `handle` redacts the reason on the way out (dataHandlingOf(config).deadLetter,
 * docs/data-handling.md): a JSON parser's message quotes the input.
 */
export function buildDeadLetterRecord(message: KafkaMessage, source: Source, reason: DeadLetterReason, topic: string, now: Date, handle: (letter: DeadLetter) => DeadLetter = (letter) => letter): OutgoingRecord {
  const deadLetter = buildDeadLetter({
    message: { key: message.key, value: message.value, headers: message.headers as RawHeaders | undefined },
    source: { topic: source.topic, partition: source.partition, offset: source.offset, timestamp: messageTime(message) },
    error: reason,
    now,
  });
  return { topic, key: message.key === null ? null : message.key.toString('utf8'), value: JSON.stringify(handle(deadLetter)), headers: originHeaders };
}

/** Publishes the message's dead letter until acknowledged, then counts it; throws only after the hard stop. */
export async function publishDeadLetter(message: KafkaMessage, source: Source, reason: DeadLetterReason, output: MessageOutput, context: DeadLetterContext): Promise<void> {
  const record = buildDeadLetterRecord(message, source, reason, context.config.topics.deadLetter, new Date(context.now()), dataHandlingOf(context.config).deadLetter);
  await publishUntilAcknowledged(output, [record], source, context);
  context.stats.countDeadLetter(reason.code);
}

/**
 * A message whose processing threw: a bug, not the message's fault. It is dead-lettered
 * (`processing_failed`) so the partition keeps moving — unless the hard stop came first: then the
 * error is most likely the stop's own (a publish that gave up), the message is fine, and its
 * offset must stay uncommitted so that it is scored after the restart. Resolves whether the
 * message was dead-lettered (false: it is abandoned, its offset uncommitted).
 */
export async function deadLetterUnexpected(message: KafkaMessage, source: Source, error: unknown, output: MessageOutput, context: DeadLetterContext): Promise<boolean> {
  if (context.hardStop.aborted) return false;
  context.logger.error({ err: error, source }, 'processing a run failed unexpectedly; dead-lettering it');
  try {
    await publishDeadLetter(message, source, { code: 'processing_failed', message: error instanceof Error ? error.message : String(error) }, output, context);
    return true;
  } catch (publishError) {
    context.logger.error({ err: publishError, source }, 'could not dead-letter the message; its offset stays uncommitted');
    return false;
  }
}
