// The emitter's dead letters (record-emitter.ts): a message that cannot be used, parked on its
// role's dead-letter topic as it came — its key (the record keeps it), value (base64 when not
// UTF-8), headers and position — with the reason, which data handling has redacted. As much of the
// value as fits maxRecordBytes is kept (fitDeadLetter, src/kit/contracts/build-dead-letter.ts); should
// the broker refuse it anyway, a stand-in without value and headers goes instead.
import { fitDeadLetter } from '../../src/kit/contracts/build-dead-letter.ts';
import type { RawHeaders } from '../../src/kit/contracts/build-dead-letter.ts';
import type { ConsumedMessage, OutgoingRecord } from '../../kafka/kafka-records.ts';
import type { DeadLetterReason } from '../dead-letter-reason.ts';
import { originHeaders } from '../loop-guard.ts';
import { publishUntilAcknowledged } from '../publish-until-acknowledged.ts';
import type { MessageOutput } from '../record-sink.ts';
import type { EmitterContext } from './emitter-context.ts';
import type { Where } from './emission.ts';

/** The message's own timestamp (epoch ms) as an ISO time; none when it is not a time. */
function messageTime(message: ConsumedMessage): string | undefined {
  const time = new Date(Number(message.timestamp));
  return Number.isNaN(time.getTime()) ? undefined : time.toISOString();
}

export async function emitDeadLetter(message: ConsumedMessage, reason: DeadLetterReason, output: MessageOutput, where: Where, context: EmitterContext): Promise<void> {
  const { stats, logger, deadLetterTopic } = context;
  const limit = context.maxRecordBytes;
  const { source } = where;
  const fit = fitDeadLetter(
    {
      message: { key: message.key, value: message.value, headers: message.headers as RawHeaders | undefined },
      source: { topic: source.topic, partition: source.partition, offset: source.offset, timestamp: messageTime(message) },
      error: reason,
      now: new Date(context.now()),
    },
    limit,
  );
  if (fit === undefined) {
    stats.recordsDropped += 1;
    logger.error({ source, code: reason.code }, `a dead letter cannot be written within maxRecordBytes (${limit}) even without its value and headers; dropped`);
    return;
  }
  const { deadLetter } = fit;
  const key = message.key === null ? null : message.key.toString('utf8');
  // Refused anyway (a dead-letter topic whose max.message.bytes is lower): its value and headers go, its hash stays.
  const bare = {
    ...deadLetter,
    value: deadLetter.value === null ? null : { encoding: deadLetter.value.encoding, data: '' },
    headers: {},
    truncated: { keptBytes: 0, droppedBytes: message.value?.length ?? 0, headersDropped: true },
  };
  const record: OutgoingRecord = {
    topic: deadLetterTopic,
    key,
    value: fit.json,
    headers: originHeaders,
    fallback: () => ({ topic: deadLetterTopic, key, value: JSON.stringify(bare), headers: originHeaders }),
  };
  await publishUntilAcknowledged(output, [record], source, context);
  stats.countDeadLetter(reason.code);
}
