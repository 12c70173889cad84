// What the one emitter (record-emitter.ts) is handed: every kind of record any role writes, as one
// typed union, each kind going to one entry of the topology (src/engine/topology/). A new kind of output
// is a new case here and in the emitter, never a producer of its own (docs/architecture.md).
import type { AgreementRecord } from '../../src/kit/contracts/agreement-record.ts';
import type { AlertRecord } from '../../src/kit/contracts/alert-record.ts';
import type { Source } from '../../src/kit/contracts/common.ts';
import type { RescoreRequest } from '../../src/kit/contracts/rescore-request.ts';
import type { ScoringOutcome } from '../../src/engine/pipeline/scoring-outcome.ts';
import type { ChangelogWrite } from '../../src/engine/threads/thread-stage.ts';
import type { ConsumedMessage } from '../../kafka/kafka-records.ts';
import type { DeadLetterReason } from '../dead-letter-reason.ts';

export type Emission =
  /** The core's answer about a pair (results, with its latest-score view and flag; decisions; a retry tier). */
  | ScoringOutcome
  /** A message that cannot be scored, parked as it came (the role's dead-letter topic). */
  | { readonly kind: 'dead-letter'; readonly message: ConsumedMessage; readonly error: DeadLetterReason }
  /** A run's turn or an end event, re-keyed by its thread (`{runs}-by-thread`). */
  | { readonly kind: 'thread-turn'; readonly key: string; readonly json: string }
  /** Changelog writes of by-thread partition `partition`'s thread state, in order (`{runs}-thread-state`, same partition). */
  | { readonly kind: 'thread-state'; readonly writes: readonly ChangelogWrite[]; readonly partition: number }
  /** The batch tier's open batches of batch-tier partition `partition` (`{retry}-batch-state`, same partition). */
  | { readonly kind: 'batch-state'; readonly writes: readonly ChangelogWrite[]; readonly partition: number }
  /** The feedback join's pair or window (the agreements topic). */
  | { readonly kind: 'agreement'; readonly record: AgreementRecord }
  /** The feedback join asking for a re-score (the rescore topic). */
  | { readonly kind: 'rescore-request'; readonly request: RescoreRequest }
  /** A monitor's breach or recovered notice (the alerts topic). */
  | { readonly kind: 'alert'; readonly notice: AlertRecord };

export type EmissionKind = Emission['kind'];

/** Where an emission comes from: the message it belongs to, and its run's event time (NaN when it has none). */
export type Where = { readonly source: Source; readonly eventTime: number };
