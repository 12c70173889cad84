// Defaults for everything a deployment may leave out. Sized for one 2-core instance:
// enough runs in flight to hide judge latency, few enough that memory stays flat.
import { DEFAULT_AGREEMENTS_TOPIC } from '../../kit/contracts/agreement-record.ts';
import { DEFAULT_FEEDBACK_TOPIC } from '../../kit/contracts/feedback-record.ts';

export const DEFAULT_TOPICS = {
  runs: 'agent-runs',
  results: 'agent-scores',
  deadLetter: 'agent-runs-dlq',
  alerts: 'agent-score-alerts',
  feedback: DEFAULT_FEEDBACK_TOPIC,
  agreements: DEFAULT_AGREEMENTS_TOPIC,
} as const;

/** The decisions topic of the demo and the local secured broker; the dashboard reads it by default. Off unless configured. */
export const DEMO_DECISIONS_TOPIC = 'agent-score-decisions';

export const DEFAULTS = {
  clientId: 'scorestream',
  /**
   * The Kafka client of the scoring path: @platformatic/kafka since it passed every delivery test
   * and ran faster than kafkajs (docs/delivery.md, the second Kafka client; docs/benchmarks.md).
   */
  kafkaClient: 'platformatic',
  groupId: 'scorestream',
  runsInFlight: 256,
  judgeCallsPerModel: 16,
  shutdownTimeoutMs: 30_000,
  maxMessageBytes: 1_048_576,
  /** Below a broker's default max.message.bytes (1 MiB + 12) with room for a batch's framing. */
  maxRecordBytes: 1_000_000,
  scorerTimeoutMs: 120_000,
  delivery: 'at-least-once',
  /** Score records carry all their evidence unless a deployment says less (docs/data-handling.md). */
  evidence: 'full',
  /** Runs whose propagated trace is not sampled are scored all the same (docs/observability.md, trace sampling). */
  traceSampling: 'ignore',
  /** Upper bound of judge.callTimeoutMs's default (a quarter of the binding's timeoutMs): one judge request, so a hung one costs one attempt. */
  judgeCallTimeoutMs: 30_000,
  retryTopicSuffix: '-retry',
  /** Health endpoints listen on every interface (a probe comes from the kubelet, not localhost). */
  healthHost: '0.0.0.0',
  replaysTopicSuffix: '-replays',
  /** Re-score requests of the feedback join (docs/feedback.md, re-scoring): `{runs}-rescore`. */
  rescoreTopicSuffix: '-rescore',
  retryDelaysMs: [10_000, 60_000, 600_000, 3_600_000],
  retryMaxAgeMs: 86_400_000,
  /** Thread scoring (src/engine/threads/threads-schema.ts, docs/threads.md). */
  threads: {
    idleMs: 900_000,
    maxTurns: 100,
    maxAgeMs: 86_400_000,
    onResume: 'rescore',
    minRescoreIntervalMs: 0,
    maxRescores: 10,
    /** Per partition of the repartition topic, like every bound of the thread state but maxStateBytes. */
    maxThreads: 10_000,
    /** Per instance: the held turns of every partition it owns (StateBudget), so memory does not grow with partitions. */
    maxStateBytes: 134_217_728,
    maxThreadBytes: 524_288,
    /** Also the largest changelog record of a turn: well under Kafka's default 1 MiB message limit. */
    maxTurnBytes: 65_536,
    stateTtlMs: 604_800_000,
  },
} as const;
