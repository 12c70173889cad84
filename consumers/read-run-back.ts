// A re-score's run event, read back from the runs topic (docs/feedback.md, re-scoring) — retried
// with backoff, like a publish, for as long as it takes when Kafka cannot be read (a broker
// restarting, a leader moving, a missing READ on the runs topic, which someone must fix but
// the request cannot): giving up would lose the re-score, and dead-lettering a valid request for
// the cluster's trouble would be wrong. Only the hard stop ends the retries: the error is thrown,
// the request's offset stays uncommitted, and it is read again after a restart. An answer that the
// message is not there (`found: false`) is an answer, not a failure: the caller decides it.
import type { Source } from '../src/kit/contracts/common.ts';
import type { FetchAtResult, MessagePosition } from '../kafka/fetch-at.ts';
import { retryUntilDone } from '../src/kit/backoff.ts';
import type { PublishContext } from './publish-until-acknowledged.ts';

/** Reads one message back by its position (the edge's fetchAt). */
export type FetchMessage = (position: MessagePosition) => Promise<FetchAtResult>;

export async function readRunBack(fetchRun: FetchMessage, run: Source, owner: Source, context: Omit<PublishContext, 'stats'>): Promise<FetchAtResult> {
  const { publishRetry } = context;
  return retryUntilDone(() => fetchRun(run), {
    backoff: publishRetry,
    wait: publishRetry.wait,
    onFailure: (error, attempt) => {
      if (context.hardStop.aborted) throw error;
      context.logger.warn({ err: error, attempt, source: owner, run }, "reading a re-score's run event back failed; retrying (the request's offset is not committed until it is done)");
    },
  });
}
