// Reads @platformatic/kafka's errors, so that the group-less edge (kafka-admin.ts, read-range.ts,
// fetch-at.ts) decides retry or give-up the way the library itself does: by `canRetry`. The
// library nests what the broker said: a protocol error (its `apiId`, e.g. NOT_LEADER_OR_FOLLOWER,
// and `canRetry` from its protocol table) inside a ResponseError, inside the MultipleErrors of a
// request retried several times — an AggregateError whose `errors` hold one entry per attempt.
// So every function here walks the whole tree. Matched by property, never by class, as errors
// from another copy of the library must be recognised too.
import type { fetchV17 } from '@platformatic/kafka';

type FetchResponse = fetchV17.FetchResponse;

type ErrorNode = { canRetry?: unknown; apiId?: unknown; errors?: unknown; response?: unknown };

/** `error` and every error nested in it (AggregateError / MultipleErrors `errors`), depth first. */
export function platformaticErrorTree(error: unknown): ErrorNode[] {
  const nodes: ErrorNode[] = [];
  const visit = (node: unknown, depth: number) => {
    if (typeof node !== 'object' || node === null || depth > 8) return;
    nodes.push(node as ErrorNode);
    const nested = (node as ErrorNode).errors;
    if (Array.isArray(nested)) for (const child of nested) visit(child, depth + 1);
  };
  visit(error, 0);
  return nodes;
}

/**
 * True when trying the same request again can help: something in the tree says `canRetry: true`
 * (a broker not yet leading a new partition, a connection refused while a broker restarts) and
 * nothing says `canRetry: false` (an ACL refusal, an offset out of range) — the library's own rule.
 */
export function isRetriablePlatformaticError(error: unknown): boolean {
  const tree = platformaticErrorTree(error);
  return tree.some((node) => node.canRetry === true) && !tree.some((node) => node.canRetry === false);
}

/** True when the broker answered `apiId` (e.g. 'TOPIC_ALREADY_EXISTS') anywhere in the tree. */
export function hasPlatformaticErrorId(error: unknown, apiId: string): boolean {
  return platformaticErrorTree(error).some((node) => node.apiId === apiId);
}

/** The broker's error ids in the tree, for messages ('NOT_LEADER_OR_FOLLOWER, ...'). */
export function platformaticErrorIds(error: unknown): string[] {
  return [...new Set(platformaticErrorTree(error).flatMap((node) => (typeof node.apiId === 'string' ? [node.apiId] : [])))];
}

/**
 * The fetch response a failed fetch still carries: a partition-level error (say
 * OFFSET_OUT_OF_RANGE on one partition) fails the whole request, and the answer for every
 * partition rides on the error. The last attempt's, when the request was retried.
 */
export function fetchResponseOfError(error: unknown): FetchResponse | undefined {
  const carrying = platformaticErrorTree(error).filter((node) => {
    const response = node.response as { responses?: unknown } | undefined;
    return typeof response === 'object' && response !== null && Array.isArray(response.responses);
  });
  return carrying.at(-1)?.response as FetchResponse | undefined;
}

/** The error's message, its nested errors' messages and the broker's error ids: a message that says what happened. */
export function describePlatformaticError(error: unknown): string {
  const messageOf = (node: unknown) => (node instanceof Error ? node.message : String(node));
  const leaves = platformaticErrorTree(error).filter((node) => !Array.isArray(node.errors) && node !== error);
  const details = [...new Set(leaves.map(messageOf))].filter((detail) => detail !== messageOf(error));
  const ids = platformaticErrorIds(error);
  return `${messageOf(error)}${details.length === 0 ? '' : ` ${details.join('; ')}`}${ids.length === 0 ? '' : ` (${ids.join(', ')})`}`;
}
