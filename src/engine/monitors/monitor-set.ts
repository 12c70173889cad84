// The in-stream monitors of one reader of the results topic (docs/alerts.md, in-stream monitors):
// score records go in as they are read, `evaluate(now)` runs on a wall-clock timer (so a quiet
// stream still evaluates its noData rule) and returns the breach and recovered notices to publish.
// Transport-free: the reader and the alerts-topic writer are in service/monitor/. Only live scores
// count: records of a replay (a backfill scored now) are left out, and a record is counted once by
// its scoreId. A re-score (`rescore` set: the run scored again because a person disagreed,
// docs/feedback.md) is not a sample either: it is asked for only on disagreements, so it would
// count its run twice and pull the window towards the disputed runs. Each monitor counts the
// re-scores of its window apart (`rescores` in its status).
import { scoreIdFor } from '../../kit/contracts/score-id.ts';
import type { AlertRecord } from '../../kit/contracts/alert-record.ts';
import type { ScoreRecord } from '../../kit/contracts/score-record.ts';
import type { Monitor } from './monitor-schema.ts';
import { advance, initialState } from './monitor-state.ts';
import type { MonitorCondition, MonitorPhase, MonitorState } from './monitor-state.ts';
import { MonitorWindow } from './monitor-window.ts';
import type { WindowAggregate } from './monitor-window.ts';

/** Samples one monitor keeps at most (docs/alerts.md): the oldest go first past it. */
export const DEFAULT_MAX_SAMPLES_PER_MONITOR = 100_000;

/** `rescores`: re-score records of the monitor's scorer (and agent, tenant) in its window at the last evaluation, none of them among its samples. */
export type MonitorStatus = { name: string; phase: MonitorPhase; value: number | null; samples: number; rescores: number; since?: string };

export type MonitorSet = {
  /** One score record read from the results topic; `nowMs` places the window. */
  ingest(record: ScoreRecord, nowMs: number): void;
  /** Evaluates every monitor at `nowMs`: the notices to publish, in monitor order. */
  evaluate(nowMs: number): AlertRecord[];
  /** Restores each monitor's phase from the notices it published before (oldest first), e.g. after a restart. */
  restore(notices: readonly AlertRecord[]): void;
  /** Each monitor's phase and last evaluated aggregate, for a live view. */
  statuses(): MonitorStatus[];
};

/** `rescores`: the re-score records of the window, kept like samples (bounded, once by scoreId) but only ever counted. */
type Runtime = { monitor: Monitor; window: MonitorWindow; rescores: MonitorWindow; state: MonitorState; last: WindowAggregate; lastRescores: number };

function crossed(value: number, threshold: Monitor['threshold']): boolean {
  return threshold.below !== undefined ? value < threshold.below : value > threshold.above!;
}

function alertIdFor(monitor: string, kind: string, since: number): string {
  // The score-id hash over (monitor, kind, breach start): the same notice repeated has the same id.
  return scoreIdFor({ runId: `${kind}@${new Date(since).toISOString()}`, scorerId: 'scorestream.alert', scorerVersion: monitor });
}

export function describeMonitor(monitor: Monitor): AlertRecord['monitor'] {
  return {
    name: monitor.name,
    scorer: monitor.scorer,
    ...(monitor.agent === undefined ? {} : { agent: monitor.agent }),
    ...(monitor.tenant === undefined ? {} : { tenant: monitor.tenant }),
    aggregation: monitor.aggregation,
    windowMs: monitor.window,
    threshold: monitor.threshold.below !== undefined ? { below: monitor.threshold.below } : { above: monitor.threshold.above! },
    forMs: monitor.for,
    cooldownMs: monitor.cooldown,
    noData: monitor.noData,
    minSamples: monitor.minSamples,
  };
}

export function createMonitorSet(monitors: readonly Monitor[], options: { maxSamplesPerMonitor?: number } = {}): MonitorSet {
  const maxSamples = options.maxSamplesPerMonitor ?? DEFAULT_MAX_SAMPLES_PER_MONITOR;
  const runtimes: Runtime[] = monitors.map((monitor) => ({
    monitor,
    window: new MonitorWindow(monitor.window, maxSamples),
    rescores: new MonitorWindow(monitor.window, maxSamples),
    state: initialState(),
    last: { value: null, samples: 0 },
    lastRescores: 0,
  }));
  const byScorer = new Map<string, Runtime[]>();
  for (const runtime of runtimes) byScorer.set(runtime.monitor.scorer, [...(byScorer.get(runtime.monitor.scorer) ?? []), runtime]);
  const byName = new Map(runtimes.map((runtime) => [runtime.monitor.name, runtime]));

  return {
    ingest(record, nowMs) {
      const candidates = byScorer.get(record.scorerId);
      if (candidates === undefined || record.replay !== undefined) return;
      const at = Date.parse(record.scoredAt);
      for (const { monitor, window, rescores } of candidates) {
        if (monitor.agent !== undefined && record.entity.id !== monitor.agent) continue;
        if (monitor.tenant !== undefined && record.metadata?.tenantId !== monitor.tenant) continue;
        // A re-score of any status is counted apart; a sample is a first score.
        if (record.rescore !== undefined) rescores.add({ at, scoreId: record.scoreId, value: 0, pass: undefined }, nowMs);
        else if (record.status === 'scored' && (monitor.aggregation !== 'passRate' || record.verdict !== undefined)) {
          window.add({ at, scoreId: record.scoreId, value: record.score, pass: record.verdict === undefined ? undefined : record.verdict === 'pass' }, nowMs);
        }
      }
    },
    evaluate(nowMs) {
      const notices: AlertRecord[] = [];
      for (const runtime of runtimes) {
        const { monitor } = runtime;
        const aggregate = runtime.window.aggregate(monitor.aggregation, nowMs);
        runtime.last = aggregate;
        runtime.lastRescores = runtime.rescores.aggregate('count', nowMs).samples;
        const noData = aggregate.value === null || (monitor.aggregation !== 'count' && aggregate.samples < monitor.minSamples);
        const condition: MonitorCondition = noData ? 'no_data' : crossed(aggregate.value!, monitor.threshold) ? 'breaching' : 'clear';
        const transition = advance(runtime.state, monitor, condition, nowMs);
        if (transition === undefined) continue;
        notices.push({
          schemaVersion: 1,
          alertId: alertIdFor(monitor.name, transition.kind, transition.kind === 'breach' ? nowMs : transition.since),
          kind: transition.kind,
          monitor: describeMonitor(monitor),
          value: noData ? null : aggregate.value,
          samples: aggregate.samples,
          noData,
          since: new Date(transition.since).toISOString(),
          at: new Date(nowMs).toISOString(),
          ...(aggregate.from === undefined ? {} : { window: { from: new Date(aggregate.from).toISOString(), to: new Date(aggregate.to!).toISOString() } }),
        });
      }
      return notices;
    },
    restore(notices) {
      for (const notice of notices) {
        const runtime = byName.get(notice.monitor.name);
        if (runtime === undefined) continue; // a monitor no longer configured
        const at = Date.parse(notice.at);
        runtime.state =
          notice.kind === 'breach' ? { phase: 'firing', firingSince: at, lastBreachAt: at } : { phase: 'ok', lastBreachAt: Date.parse(notice.since) };
      }
    },
    statuses() {
      return runtimes.map(({ monitor, state, last, lastRescores }) => {
        const since = state.phase === 'firing' ? state.firingSince : state.phase === 'pending' ? state.pendingSince : undefined;
        return { name: monitor.name, phase: state.phase, value: last.value, samples: last.samples, rescores: lastRescores, ...(since === undefined ? {} : { since: new Date(since).toISOString() }) };
      });
    },
  };
}
