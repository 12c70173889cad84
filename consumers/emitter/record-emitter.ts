// The one way out: every record any role writes — the service's score records, decision records,
// retry messages, dead letters and thread records; the feedback join's agreement records, re-score
// requests and dead letters; the monitor's notices — is an Emission (emission.ts) handed here.
// Each
//   - first goes through the deployment's data handling (src/engine/data-handling/, docs/data-handling.md:
//     evidence levels, redaction of every string but the ids), one call for every payload, so that
//     everything below — the size fitting included — sees what is written;
//   - goes to its topology entry (src/engine/topology/), keyed by that entry's rule (src/kit/contracts/record-key.ts);
//   - carries the origin header (the loop guard) and, in a replay, the replay's mark;
//   - fits `maxRecordBytes` (score-records.ts, dead-letters.ts, role-records.ts say how each kind
//     sheds), with a smaller stand-in (`fallback`) should the broker refuse it anyway (a topic whose
//     max.message.bytes is lower; producers/send-records.ts classifies the refusal);
//   - goes through the message's output until accepted (publishUntilAcknowledged), and is counted
//     once it was.
// Nothing else publishes: a new kind of outgoing record is a new case of Emission and of `emit`.
import type { Source } from '../../src/kit/contracts/common.ts';
import type { ConsumedMessage } from '../../kafka/kafka-records.ts';
import type { DeadLetterReason } from '../dead-letter-reason.ts';
import type { MessageOutput } from '../record-sink.ts';
import { emitDeadLetter } from './dead-letters.ts';
import type { Emission, Where } from './emission.ts';
import type { EmitterContext, ServiceEmitterSettings } from './emitter-context.ts';
import { emitterContextOf } from './emitter-context.ts';
import { emitAgreement, emitAlert, emitRescoreRequest, emitThreadState, emitBatchState, emitThreadTurn } from './role-records.ts';
import { createScoreRecordEmitter } from './score-records.ts';

export type { AcknowledgedRecordFields } from './emitter-context.ts';
export type { Emission, Where } from './emission.ts';

export type RecordEmitter = {
  /**
   * An emission as its records, published through `output` until accepted, then counted. A skip
   * without a decisions topic is only counted, at once, and a record that cannot fit even in its
   * smallest form is dropped and reported: then nothing is returned to await. Throws only after
   * the hard stop.
   */
  emit(emission: Emission, output: MessageOutput, where: Where): Promise<void> | undefined;
  /** A message that cannot be used, parked as it came (as much of it as fits). */
  deadLetter(message: ConsumedMessage, source: Source, reason: DeadLetterReason, output: MessageOutput): Promise<void>;
};

/** The emitter of any role, on its context (emitter-context.ts). */
export function createEmitter(context: EmitterContext): RecordEmitter {
  const { handling } = context;
  const scores = createScoreRecordEmitter(context);

  /** Every emission's one way: handled (evidence, redaction) first, then built, sized and published by its kind. */
  const emit = (emission: Emission, output: MessageOutput, where: Where): Promise<void> | undefined => {
    // A skip that goes nowhere is only counted: nothing of it leaves the process, so nothing to handle.
    if (emission.kind === 'skipped' && !scores.publishesDecisions) return scores.skip(emission.decision, output, where);
    const handled = handling.outgoing(emission);
    switch (handled.kind) {
      case 'record':
        return scores.record(handled.record, output, where);
      case 'skipped':
        return scores.skip(handled.decision, output, where);
      case 'deferred':
        return scores.deferral(handled, output, where);
      case 'dead-letter':
        return emitDeadLetter(handled.message, handled.error, output, where, context);
      case 'thread-turn':
        return emitThreadTurn(handled.key, handled.json, output, where, context);
      case 'thread-state':
        return emitThreadState(handled.writes, handled.partition, output, where, context);
      case 'batch-state':
        return emitBatchState(handled.writes, handled.partition, output, where, context);
      case 'agreement':
        return emitAgreement(handled.record, output, where, context);
      case 'rescore-request':
        return emitRescoreRequest(handled.request, output, where, context);
      case 'alert':
        return emitAlert(handled.notice, output, where, context);
    }
  };

  return {
    emit,
    async deadLetter(message, source, reason, output) {
      await emit({ kind: 'dead-letter', message, error: reason }, output, { source, eventTime: Number.NaN });
    },
  };
}

/** The scoring service's emitter, from its message context's config, counters and pacing. */
export function createRecordEmitter(settings: ServiceEmitterSettings): RecordEmitter {
  return createEmitter(emitterContextOf(settings));
}
