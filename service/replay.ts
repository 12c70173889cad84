// `scorestream replay`, the service side: re-reads the runs topic from `from` (to `to`, or to the
// end offsets taken at start) through the same pipeline as the live service — the same consumer,
// filters, sampling, budgets and deterministic scoreIds — in a consumer group of its own named
// after the replay, so it never moves the live group's offsets. The range is fixed when the
// replay first starts and recorded on the replays topic (replay-state.ts): a rerun of the same
// replay reads it back and continues from what it committed, over the same offsets. Its records
// are marked `replay: { id }`. It finishes when the group's committed offset reached the end of
// every partition's range. Its judges run live (`judgeMode` 'live', the default: a binding's batch
// mode is the live service's); with `judgeMode` 'batch' every selected binding waits on the
// provider's batch API, on a batch tier of the replay's own (`{retry}-replay-<id>-batch`), and
// the replay finishes once that tier is drained too.
import type { Logger } from 'pino';
import { ConfigError } from '../src/engine/config/config-error.ts';
import type { ResolvedConfig } from '../src/engine/config/resolve-config.ts';
import type { ReplayState } from '../src/kit/contracts/replay-state.ts';
import { createKafkaEdge } from '../kafka/kafka-edge.ts';
import type { KafkaEdge } from '../kafka/kafka-edge.ts';
import { explainKafkaError, kafkaPreflight } from '../kafka/kafka-preflight.ts';
import { replayAccess } from './replay-access.ts';
import { committedOffsets, replayGroupId, replayId, replayProgress, replayTimeOf, resolveReplayRange, seedReplayOffsets } from './replay-range.ts';
import { readReplayState, recordReplayState } from './replay-state.ts';
import type { ReplayRange, ReplayRequest, ReplayTime } from './replay-range.ts';
import { startService } from './start-service.ts';
import type { RunningService, ServiceOptions } from './start-service.ts';
import type { ServiceStats } from '../consumers/service-stats.ts';
import { KAFKA_DEFAULTS } from '../kafka/kafka-defaults.ts';
import type { JudgeMode } from '../src/engine/judge-batch/batch-schema.ts';
import { batchTierTopic, replayRetryPrefix } from '../src/engine/topology/batch-topics.ts';

export type ReplayOptions = Omit<ServiceOptions, 'replay' | 'createRunsTopic'> & {
  /** A Date is absolute; a ReplayTime names a relative time by its words (`10m ago`), so that rerunning it is the same replay. */
  from: Date | ReplayTime;
  to?: Date | ReplayTime;
  /** Scorer ids to replay; default every scorer of the config. */
  scorers?: readonly string[];
  /** The replay's name (`--id`): letters, digits, `.`, `_`, `-`; default derived from the range and scorers. */
  id?: string;
  /** How often the committed offsets are read for progress and the end (default 500 ms). */
  pollIntervalMs?: number;
  /** `batch`: the replay's judge calls go to the provider's batch API at the batch price (needs the config's judge.batch); default `live`. */
  judgeMode?: JudgeMode;
  onProgress?: (progress: ReplayProgress) => void;
};

export type ReplayProgress = { done: number; total: number; finished: boolean };

export type ReplayOutcome = { finished: boolean; progress: ReplayProgress; stats: ServiceStats | undefined };

export type RunningReplay = {
  readonly range: ReplayRange;
  /** Resolves when the range is done, or after stop(). */
  readonly outcome: Promise<ReplayOutcome>;
  /** Graceful, like the service's: in-flight runs finish and are committed, so a rerun continues after them. */
  stop(): Promise<ReplayOutcome>;
};

/** The config's bindings of the given scorer ids; a ConfigError names every unknown id. */
export function selectScorers<Event>(config: ResolvedConfig<Event>, ids: readonly string[] | undefined): ResolvedConfig<Event>['scorers'] {
  if (ids === undefined || ids.length === 0) return config.scorers;
  const known = new Set(config.scorers.map((binding) => binding.scorerId));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length > 0) {
    throw new ConfigError(unknown.map((id) => ({ path: '--scorer', message: `no scorer '${id}' in the config; known: ${[...known].join(', ')}` })));
  }
  const selected = config.scorers.filter((binding) => ids.includes(binding.scorerId));
  // An escalated binding decides on its earlier scorers' outcomes: without them it would judge only its sample.
  const unmet = selected.flatMap((binding) => (binding.escalate?.after ?? []).filter((id) => !ids.includes(id)).map((id) => ({ binding: binding.scorerId, id })));
  if (unmet.length > 0) {
    throw new ConfigError(unmet.map(({ binding, id }) => ({ path: '--scorer', message: `scorer '${binding}' escalates on the score of '${id}' (escalate.when), so replaying it alone would judge only its sample; add --scorer ${id}` })));
  }
  return selected;
}

/**
 * The bindings a replay runs with under `judgeMode`: live, every binding judges live (a replay
 * never reads the live service's batch tier); batch, every binding's judge waits on the batch API.
 */
export function withJudgeMode<Binding extends { judge?: { mode: JudgeMode; liveOnFailure?: boolean | undefined } | undefined }>(config: Pick<ResolvedConfig, 'judge'>, bindings: readonly Binding[], judgeMode: JudgeMode): Binding[] {
  if (judgeMode === 'batch' && config.judge?.batch === undefined) {
    throw new ConfigError([{ path: '--judge-mode', message: "--judge-mode batch needs the config's judge.batch (api, baseURL, models: (fetch) => registry): the batch API the replay's judge calls go to" }]);
  }
  return bindings.map((binding) => ({ ...binding, judge: { ...binding.judge, mode: judgeMode } }));
}

/** Every partition of the replay's batch tier read to its end: no pair waits on a batch any more. */
async function batchTierDrained(admin: KafkaEdge['admin'], groupId: string, topic: string): Promise<boolean> {
  const [committed, ends] = await Promise.all([committedOffsets(admin, groupId, topic), admin.partitionOffsets(topic)]);
  return ends.every(({ partition, high }) => (committed.get(partition) ?? 0) >= Number(high));
}

const replayIdPattern = /^[A-Za-z0-9._-]{1,100}$/;

export function replayRequest(config: ResolvedConfig, options: Pick<ReplayOptions, 'from' | 'to' | 'scorers' | 'id'>): ReplayRequest {
  const from = replayTimeOf(options.from);
  const to = options.to === undefined ? undefined : replayTimeOf(options.to);
  if (to !== undefined && to.at.getTime() <= from.at.getTime()) {
    throw new ConfigError([{ path: '--to', message: `--to (${to.at.toISOString()}) must be after --from (${from.at.toISOString()})` }]);
  }
  if (options.id !== undefined && !replayIdPattern.test(options.id)) {
    throw new ConfigError([{ path: '--id', message: `expected letters, digits, '.', '_' or '-' (at most 100), got '${options.id.slice(0, 120)}'` }]);
  }
  return {
    groupId: config.groupId,
    topic: config.topics.runs,
    from,
    scorers: options.scorers ?? [],
    ...(to === undefined ? {} : { to }),
    ...(options.id === undefined ? {} : { id: options.id }),
  };
}

/** The range as recorded: the partitions' offsets, whatever the clock says now. */
function rangeOf(state: ReplayState): ReplayRange {
  return { id: state.id, groupId: `${state.liveGroupId}.${state.id}`, partitions: state.partitions, total: state.partitions.reduce((sum, range) => sum + range.end - range.start, 0) };
}

/** A replay named with --id continues only what it was started for: another range is another replay. */
function checkSameRange(state: ReplayState, request: ReplayRequest): void {
  const same = state.from.spec === request.from.spec && (state.to?.spec ?? null) === (request.to?.spec ?? null) && [...state.scorers].sort().join(',') === [...request.scorers].sort().join(',');
  if (same) return;
  const named = (from: string, to: string | undefined, scorers: readonly string[]) => `--from ${from}${to === undefined ? '' : ` --to ${to}`}${scorers.length === 0 ? '' : ` --scorer ${[...scorers].sort().join(',')}`}`;
  throw new ConfigError([
    {
      path: '--id',
      message: `replay '${state.id}' was started with ${named(state.from.spec, state.to?.spec, state.scorers)} (${state.startedAt}); a new range is a new replay: give it another --id`,
    },
  ]);
}

/**
 * The range of `request` (and, with `seed`, its recorded state and its group's start offsets).
 * Checks first that the cluster lets the replay in and at its topics and groups
 * (replay-access.ts): a refusal is a KafkaAccessError naming the ACL (exit 2), as for the service.
 * The first run of a replay resolves its range and records it (replay-state.ts); a later run reads
 * it back. A dry run (`seed` false) uses a recorded range, or resolves one without recording it.
 */
export async function resolveRange(edge: KafkaEdge, config: ResolvedConfig, request: ReplayRequest, seed: boolean, logger: Logger): Promise<{ range: ReplayRange; committed: Map<number, number>; recorded: ReplayState | undefined }> {
  const access = replayAccess(config, replayGroupId(request));
  await kafkaPreflight(edge.connection, access.needs, access.context);
  const { admin } = edge;
  try {
    const id = replayId(request);
    const recorded = await readReplayState(edge, config.topics.replays, id, logger);
    if (recorded !== undefined) checkSameRange(recorded, request);
    let range: ReplayRange;
    if (recorded !== undefined) range = rangeOf(recorded);
    else {
      range = await resolveReplayRange(admin, request);
      if (seed) {
        await recordReplayState(edge, config.topics.replays, {
          schemaVersion: 1,
          id,
          liveGroupId: request.groupId,
          topic: request.topic,
          from: { spec: request.from.spec, at: request.from.at.toISOString() },
          ...(request.to === undefined ? {} : { to: { spec: request.to.spec, at: request.to.at.toISOString() } }),
          scorers: [...request.scorers],
          partitions: range.partitions,
          startedAt: new Date().toISOString(),
        });
      }
    }
    if (seed) await seedReplayOffsets(admin, range.groupId, request.topic, range);
    return { range, committed: await committedOffsets(admin, range.groupId, request.topic), recorded };
  } catch (error) {
    throw explainKafkaError(error, access.context);
  }
}

export async function startReplay(options: ReplayOptions): Promise<RunningReplay> {
  const { config, logger } = options;
  const judgeMode = options.judgeMode ?? 'live';
  const scorers = withJudgeMode(config, selectScorers(config, options.scorers), judgeMode);
  const request = replayRequest(config, options);
  const edge = options.edge ?? createKafkaEdge(config.kafka, { log: logger });
  const closeEdge = options.edge === undefined ? () => edge.close() : () => Promise.resolve();
  const { range, committed, recorded } = await resolveRange(edge, config, request, true, logger).catch(async (error: unknown) => {
    await closeEdge();
    throw error;
  });
  const initial = replayProgress(range, committed);
  options.onProgress?.(initial);
  logger.info(
    { replay: range.id, groupId: range.groupId, partitions: range.partitions, done: initial.done, total: range.total, ...(recorded === undefined ? {} : { startedAt: recorded.startedAt }) },
    recorded === undefined ? 'replay starts: its range is fixed and recorded' : 'replay continues over the range it fixed when it started',
  );
  // A batch tier of the replay's own: its pairs are never the live service's, nor its the replay's.
  const retryPrefix = judgeMode === 'batch' ? replayRetryPrefix(config.topics.retry, range.id) : config.topics.retry;
  const drained = () => judgeMode === 'live' || batchTierDrained(edge.admin, range.groupId, batchTierTopic(retryPrefix)).catch(() => false);
  if (initial.finished && (await drained())) {
    const outcome = { finished: true, progress: initial, stats: undefined };
    await closeEdge();
    return { range, outcome: Promise.resolve(outcome), stop: () => Promise.resolve(outcome) };
  }

  const service: RunningService = await startService({
    ...options,
    edge,
    // No retry topic: the live service owns `{runs}-retry`, and a replay's group reading it would
    // re-score the live service's deferred pairs. A replay's transient failure stays final; a
    // later replay of the same range with a new --from/--to scores it again.
    config: { ...config, groupId: range.groupId, scorers, topics: { ...config.topics, retry: retryPrefix }, retries: { ...config.retries, enabled: false } },
    replay: { id: range.id },
    consumer: { ...options.consumer, endOffsets: new Map(range.partitions.map(({ partition, end }) => [partition, end])) },
  });

  const { admin } = edge;
  let progress = initial;
  let settled: Promise<ReplayOutcome> | undefined;
  let resolveOutcome!: (outcome: ReplayOutcome) => void;
  const outcome = new Promise<ReplayOutcome>((resolve) => (resolveOutcome = resolve));
  let timer: NodeJS.Timeout | undefined;
  const finish = (finished: boolean) => {
    settled ??= (async () => {
      clearTimeout(timer);
      await service.stop();
      // What the stop committed counts too (a Ctrl-C near the end may have finished the range).
      progress = replayProgress(range, await committedOffsets(admin, range.groupId, request.topic).catch(() => new Map<number, number>()));
      await closeEdge();
      options.onProgress?.(progress);
      const result = { finished: finished || (judgeMode === 'live' && progress.finished), progress, stats: service.stats };
      logger.info({ replay: range.id, ...progress }, result.finished ? 'replay finished' : 'replay stopped; run the same command again to continue');
      resolveOutcome(result);
      return result;
    })();
    return settled;
  };
  const poll = async () => {
    try {
      progress = replayProgress(range, await committedOffsets(admin, range.groupId, request.topic));
      options.onProgress?.(progress);
    } catch (error) {
      logger.warn({ err: error }, 'replay: could not read the committed offsets; trying again');
    }
    if (settled !== undefined) return;
    const done = progress.finished && (await drained());
    if (settled !== undefined) return;
    if (done) void finish(true);
    else timer = setTimeout(() => void poll(), options.pollIntervalMs ?? KAFKA_DEFAULTS.replay.pollIntervalMs);
  };
  timer = setTimeout(() => void poll(), options.pollIntervalMs ?? KAFKA_DEFAULTS.replay.pollIntervalMs);
  void service.crashed.then(() => finish(false));
  return { range, outcome, stop: () => finish(false) };
}
