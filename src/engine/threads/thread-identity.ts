// Which thread a run belongs to (docs/threads.md, thread identity), read in this order:
//   1. the path the config names (`threads.idPath`, into the run's metadata or request context);
//   2. the messages' `threadId` (Mastra's shape: every message of a thread carries it);
//   3. `metadata.conversationId` (what the OTLP input maps `gen_ai.conversation.id` to).
// The first that holds a non-empty string (or a finite number) wins; a run with none is not part
// of any thread and is scored as before. The key adds the tenant (`metadata.tenantId`), so two
// tenants' thread `42` are two threads.
import type { AgentRunEvent } from '../../kit/contracts/agent-run-event.ts';
import { threadKeyFor } from '../../kit/contracts/thread-ids.ts';
import { compilePath, MISSING, parsePath } from '../eligibility/predicate-paths.ts';
import { firstMessageField } from '../pipeline/run-facts.ts';

export type ThreadIdentity = {
  /** threadKeyFor(tenantId, threadId). */
  key: string;
  threadId: string;
  tenantId?: string;
  /** Where the id was found. */
  from: 'path' | 'messages' | 'metadata';
};

export type ThreadIdentityOptions = {
  /** `threads.idPath`, e.g. 'metadata.sessionId' (validated by the config schema). */
  idPath?: string | undefined;
};

// Paths are few (one per config) and compiled once each.
const compiled = new Map<string, (context: unknown) => unknown>();

function resolverFor(path: string): (context: unknown) => unknown {
  let resolve = compiled.get(path);
  if (resolve === undefined) {
    const parsed = parsePath(path);
    resolve = parsed === undefined ? () => MISSING : compilePath(parsed);
    compiled.set(path, resolve);
  }
  return resolve;
}

function idText(value: unknown): string | undefined {
  if (typeof value === 'string') return value === '' ? undefined : value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

export function threadIdentityOf(event: AgentRunEvent, options: ThreadIdentityOptions = {}): ThreadIdentity | undefined {
  let from: ThreadIdentity['from'] = 'path';
  let threadId = options.idPath === undefined ? undefined : idText(resolverFor(options.idPath)({ metadata: event.metadata ?? {}, requestContext: event.requestContext }));
  if (threadId === undefined) {
    from = 'messages';
    threadId = firstMessageField(event, 'threadId');
  }
  if (threadId === undefined) {
    from = 'metadata';
    threadId = idText(event.metadata?.conversationId);
  }
  if (threadId === undefined) return undefined;
  const tenantId = event.metadata?.tenantId === '' ? undefined : event.metadata?.tenantId;
  return { key: threadKeyFor(tenantId, threadId), threadId, ...(tenantId === undefined ? {} : { tenantId }), from };
}
