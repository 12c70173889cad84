// What the health endpoints answer (docs/deployment.md, health probes), kept apart from HTTP so
// it is testable with a fake clock and a fake broker probe:
//   live     — the event loop answers (this code runs at all), with its recent delay;
//   started  — startService finished: pre-flight passed, topics exist, the consumer runs;
//   ready    — started, not stopping, joined the group with partitions of the runs topic assigned
//              (at its latest join), and the broker answered a metadata request at the last check.
// The broker check is one cheap request (describeCluster) answered from a cache for `cacheMs`,
// so probes from several kubelets or a tight period never add up to more than one request a
// second, and a check in flight is shared.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { KAFKA_DEFAULTS } from '../kafka/kafka-defaults.ts';

export type NotReadyReason = 'starting' | 'stopping' | 'no_partitions' | 'broker_unreachable';

export type Readiness = { ready: true; partitions: number } | { ready: false; reasons: NotReadyReason[]; partitions: number; brokerError?: string };

export type HealthState = {
  /** For the scoring consumer's `onAssignment`: the partitions this member now owns, by topic. */
  assigned(assignment: Record<string, number[] | undefined>): void;
  started(): void;
  stopping(): void;
  readonly isStarted: boolean;
  /** Milliseconds the event loop was recently late by (p99 of the last interval). */
  eventLoopDelayMs(): number;
  readiness(): Promise<Readiness>;
  close(): void;
};

export type HealthStateOptions = {
  /** The runs topic: readiness counts its assigned partitions. */
  runsTopic: string;
  /** Resolves when the broker answers; rejects otherwise. Bounded by `probeTimeoutMs`. */
  probeBroker: () => Promise<void>;
  now?: () => number;
  /** How long a broker check's result is reused (default KAFKA_DEFAULTS.brokerProbe.cacheMs, 1 s). */
  cacheMs?: number;
  /** A check that takes longer counts as unreachable (default KAFKA_DEFAULTS.brokerProbe.timeoutMs, 2 s). */
  probeTimeoutMs?: number;
};

export function createHealthState(options: HealthStateOptions): HealthState {
  const now = options.now ?? Date.now;
  const cacheMs = options.cacheMs ?? KAFKA_DEFAULTS.brokerProbe.cacheMs;
  const probeTimeoutMs = options.probeTimeoutMs ?? KAFKA_DEFAULTS.brokerProbe.timeoutMs;
  let partitions = 0;
  let isStarted = false;
  let isStopping = false;
  let lastCheck: { at: number; error?: string } | undefined;
  let checking: Promise<{ at: number; error?: string }> | undefined;
  const delay = monitorEventLoopDelay({ resolution: 20 });
  delay.enable();

  const checkBroker = (): Promise<{ at: number; error?: string }> => {
    if (lastCheck !== undefined && now() - lastCheck.at < cacheMs) return Promise.resolve(lastCheck);
    checking ??= (async () => {
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          options.probeBroker(),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error(`the broker did not answer within ${probeTimeoutMs} ms`)), probeTimeoutMs);
          }),
        ]);
        lastCheck = { at: now() };
      } catch (error) {
        lastCheck = { at: now(), error: error instanceof Error ? error.message : String(error) };
      } finally {
        clearTimeout(timer);
        checking = undefined;
      }
      return lastCheck;
    })();
    return checking;
  };

  return {
    assigned(assignment) {
      partitions = assignment[options.runsTopic]?.length ?? 0;
    },
    started() {
      isStarted = true;
    },
    stopping() {
      isStopping = true;
    },
    get isStarted() {
      return isStarted;
    },
    eventLoopDelayMs() {
      const value = delay.percentile(99) / 1e6;
      delay.reset();
      return Number.isFinite(value) ? Math.round(value) : 0;
    },
    async readiness() {
      const reasons: NotReadyReason[] = [];
      if (!isStarted) reasons.push('starting');
      if (isStopping) reasons.push('stopping');
      if (partitions === 0) reasons.push('no_partitions');
      // The broker is asked only when nothing else already says no: a starting service's
      // pre-flight is talking to it anyway.
      const check = reasons.length === 0 ? await checkBroker() : undefined;
      if (check?.error !== undefined) reasons.push('broker_unreachable');
      if (reasons.length === 0) return { ready: true, partitions };
      return { ready: false, reasons, partitions, ...(check?.error === undefined ? {} : { brokerError: check.error }) };
    },
    close() {
      delay.disable();
    },
  };
}
