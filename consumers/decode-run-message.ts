// Decode: a consumed message's value becomes a validated run event, or the reason it cannot be
// one, in the shape a dead letter carries (docs/contracts.md, the dead letter): UTF-8, JSON and
// the run-event contract (decodeAgentRunEvent). The size limit is checked before, once for every
// source (message-path.ts). Messages that fail are dead-lettered; nothing here publishes.
import type { AgentRunEvent } from '../src/kit/contracts/agent-run-event.ts';
import type { BuildDeadLetterOptions } from '../src/kit/contracts/build-dead-letter.ts';
import { decodeAgentRunEvent } from '../src/kit/contracts/parse.ts';

/** Why a message was dead-lettered: its code, a message for people, and the contract's problems by path. */
export type DeadLetterReason = BuildDeadLetterOptions['error'];

export type DecodedRunMessage = { success: true; data: AgentRunEvent } | { success: false; reason: DeadLetterReason };

export function decodeRunMessage(value: Buffer | null): DecodedRunMessage {
  const decoded = decodeAgentRunEvent(value);
  if (decoded.success) return decoded;
  const problems = decoded.problems.length === 0 ? undefined : decoded.problems;
  return { success: false, reason: { code: decoded.code, message: decoded.message, problems } };
}
