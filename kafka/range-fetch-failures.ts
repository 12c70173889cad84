// What the fetch loop of a group-less read (range-fetch-loop.ts) does with a fetch that failed.
// A partition-level error fails the whole request, its answer for every partition riding on the
// error: each partition's error is then weighed alone — OFFSET_OUT_OF_RANGE (retention deleted
// the next offset) restarts that partition at its new start and says so, a retriable one (a
// leader moving) holds it back until fresh metadata, any other (an ACL refusal) ends the read
// naming it. A failure of the whole request is retried when retriable, else ends the read.
import { protocolErrors, protocolErrorsCodesById } from '@platformatic/kafka';
import { KafkaReadError } from './kafka-read-error.ts';
import { listPartitionBounds } from './group-less-consumer.ts';
import type { FetchResponse, GroupLessConsumer } from './group-less-consumer.ts';
import type { PartitionRead } from './partition-read.ts';
import { describePlatformaticError, fetchResponseOfError, isRetriablePlatformaticError } from './platformatic-errors.ts';

/** Where a partition is fetched from: its leader, and its topic's id (what Fetch names topics by). */
export type PartitionLeader = { node: number; topicId: string };

export type FailureContext = {
  readonly consumer: GroupLessConsumer;
  readonly leaders: ReadonlyMap<PartitionRead, PartitionLeader>;
  readonly warn: (message: string) => void;
  /** Holds the partitions back and fetches them again after a pause and fresh metadata. */
  readonly retryLater: (held: readonly PartitionRead[], error: unknown, where: string) => void;
  /** Ends the read. */
  readonly fail: (error: Error) => void;
  readonly noteProgress: (read: PartitionRead) => void;
};

const partitionName = (read: PartitionRead) => `${read.topic}[${read.partition}]`;

/** Rejects only when listing a partition's new start failed (the caller decides on that error). */
export async function handleFetchFailure(context: FailureContext, node: number, group: readonly PartitionRead[], error: unknown): Promise<void> {
  const response = fetchResponseOfError(error);
  const problems = response === undefined || response.errorCode !== 0 ? [] : partitionProblems(group, response, context.leaders);
  if (problems.length === 0) {
    const names = group.map(partitionName).join(', ');
    if (isRetriablePlatformaticError(error)) context.retryLater(group, error, `${names} from broker ${node}`);
    else context.fail(new KafkaReadError(`could not read ${names} from broker ${node}: ${describePlatformaticError(error)}; check that the topics exist and that this client may read them`, { topic: group[0]?.topic, partition: group.length === 1 ? group[0]?.partition : undefined, cause: error }));
    return;
  }
  const fatal = problems.find((problem) => !problem.canRetry && problem.id !== 'OFFSET_OUT_OF_RANGE');
  if (fatal !== undefined) {
    context.fail(new KafkaReadError(`could not read ${partitionName(fatal.read)}: the broker answered ${fatal.id}; check that this client may read the topic`, { topic: fatal.read.topic, partition: fatal.read.partition, cause: error }));
    return;
  }
  for (const { read, id } of problems) {
    const restarted = id === 'OFFSET_OUT_OF_RANGE' && (await restartOutOfRange(context, read));
    if (!restarted) context.retryLater([read], error, `${partitionName(read)} from broker ${node}`);
  }
}

/** Moves the partition into its bounds as they are now; false when it was within them (the error was a race: retried). */
async function restartOutOfRange(context: FailureContext, read: PartitionRead): Promise<boolean> {
  const bounds = (await listPartitionBounds(context.consumer, { [read.topic]: [read.partition] })).get(read.topic)?.get(read.partition);
  if (bounds === undefined) throw new Error(`Kafka listed no offsets for ${partitionName(read)}`);
  const from = read.next;
  if (from >= bounds.low && from <= bounds.high) return false;
  read.next = from < bounds.low ? bounds.low : bounds.high;
  read.end = bounds.high;
  // The aborted transactions noted so far lie behind the new position; the next fetch lists those ahead.
  read.filter.reset();
  context.warn(
    from < bounds.low
      ? `offset ${from} of ${partitionName(read)} is no longer on the topic (retention deleted it): reading on from ${bounds.low}, where the partition now starts`
      : `offset ${from} of ${partitionName(read)} is past the partition's end (${bounds.high}): reading on from there`,
  );
  context.noteProgress(read);
  return true;
}

type PartitionProblem = { read: PartitionRead; id: string; canRetry: boolean };

/** The partitions of `group` the broker answered with an error, and whether that error is retriable. */
function partitionProblems(group: readonly PartitionRead[], response: FetchResponse, leaders: ReadonlyMap<PartitionRead, PartitionLeader>): PartitionProblem[] {
  const problems: PartitionProblem[] = [];
  for (const read of group) {
    const topicId = leaders.get(read)?.topicId;
    const answer = response.responses.find((topic) => topic.topicId === topicId)?.partitions.find((candidate) => candidate.partitionIndex === read.partition);
    if (answer === undefined || answer.errorCode === 0) continue;
    const id = protocolErrorsCodesById[answer.errorCode] ?? `error code ${answer.errorCode}`;
    problems.push({ read, id, canRetry: protocolErrors[id]?.canRetry ?? false });
  }
  return problems;
}
