// Who a sample run talks to and in which thread: a new conversation draws its agent, tenant, user
// and thread; a later turn continues an open one or resumes a finished one (Conversations).
import { codingAssistant, researchAgent } from './agents-knowledge.ts';
import { supportAgent, travelWorkflow } from './agents-support.ts';
import type { Random } from './prng.ts';
import type { AgentProfile } from './scenario-types.ts';
import { tenants } from './tenants.ts';

/** The agents' shares of new conversations (relative weights). */
const agents: ReadonlyArray<readonly [AgentProfile, number]> = [
  [supportAgent, 5],
  [researchAgent, 3],
  [codingAssistant, 3],
  [travelWorkflow, 2],
];

/** Who a run talks to and in which thread: drawn for a new conversation, kept for its later turns. */
export type Conversation = {
  agent: AgentProfile;
  tenant: (typeof tenants)[number];
  userId: string;
  thread: { threadId: string; resourceId: string };
  locale: string;
  turnsLeft: number;
  /** When its last turn finished (epoch ms), once it has. */
  finishedAt?: number;
};

/** A finished conversation is resumed only this long after its last turn: past a thread scorer's idle gap (the example binds 20 s). */
const RESUME_AFTER_MS = 30_000;

/**
 * Multi-turn traffic (docs/threads.md): a run continues an open conversation about half the time;
 * a new one takes 1–4 turns; a few finished conversations are resumed, at least RESUME_AFTER_MS
 * after their last turn (once their thread went idle and was scored, so a resumed thread is
 * re-scored). Bounded: at most 24 open and 24 resumable conversations are remembered.
 */
export class Conversations {
  readonly #open: Conversation[] = [];
  readonly #finished: Conversation[] = [];

  nextTurn(random: Random, now: number): Conversation | undefined {
    const oldest = this.#finished[0];
    if (oldest !== undefined && now - oldest.finishedAt! >= RESUME_AFTER_MS && random.chance(0.1)) {
      this.#finished.shift();
      oldest.turnsLeft = random.int(1, 2);
      return this.#take(oldest, now);
    }
    if (this.#open.length > 0 && random.chance(0.45)) return this.#take(random.pick(this.#open), now);
    return undefined;
  }

  /** A new conversation's first turn was drawn: remember it for its later turns. */
  started(conversation: Conversation, now: number): void {
    if (conversation.turnsLeft <= 0) return this.#finish(conversation, now);
    this.#open.push(conversation);
    if (this.#open.length > 24) this.#finish(this.#open.shift()!, now);
  }

  #take(conversation: Conversation, now: number): Conversation {
    conversation.turnsLeft -= 1;
    const index = this.#open.indexOf(conversation);
    if (conversation.turnsLeft <= 0) {
      if (index >= 0) this.#open.splice(index, 1);
      this.#finish(conversation, now);
    } else if (index < 0) this.#open.push(conversation);
    return conversation;
  }

  #finish(conversation: Conversation, now: number): void {
    conversation.finishedAt = now;
    this.#finished.push(conversation);
    if (this.#finished.length > 24) this.#finished.shift();
  }
}

export function newConversation(random: Random): Conversation {
  const agent = random.weighted(agents);
  const tenant = random.weighted(tenants.map((entry) => [entry, entry.weight] as const));
  const userId = `user-${random.hex(8)}`;
  return { agent, tenant, userId, thread: { threadId: `thread-${random.hex(10)}`, resourceId: userId }, locale: random.pick(tenant.locales), turnsLeft: random.weighted([[0, 4], [1, 3], [2, 2], [3, 1]] as const) };
}
