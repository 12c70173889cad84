// The input seam of the scoring consumer: what turns one consumed message into scored runs. The
// consumer dispatches every message to `process` and settles the message's ticket when it
// resolves; an input format is one implementation (docs/architecture.md, where new inputs join):
//   - run events (default): processRunMessage, one run per message;
//   - OTLP spans: createOtlpInput (otlp-input.ts), which assembles runs across messages and
//     resolves a message only when every run it contributed to is done.
import type { KafkaMessage } from 'kafkajs';
import type { Source } from '../src/contracts/common.ts';
import type { MessageContext } from './message-context.ts';
import type { MessageTrace } from './message-trace.ts';
import { processRunMessage } from './process-run-message.ts';
import type { MessageOutput } from './record-sink.ts';

export type ProcessMessage = (message: KafkaMessage, source: Source, output: MessageOutput, trace: MessageTrace, context: MessageContext) => Promise<void>;

export type RunInput = {
  /** Resolves once everything the message produced was accepted by `output` (its offset may then be committed). */
  readonly process: ProcessMessage;
  /** The consumer's assignment ended (RecordSink.assignmentEnded): its partitions may be read again from their commits. */
  assignmentEnded?(): void;
  /** The consumer stopped: release timers and state. */
  close?(): void;
};

/** The default input: one run event per message. */
export const runEventInput: RunInput = { process: processRunMessage };
