// What every part of the per-message path (the message path, the job runner, the emitter) shares
// across messages: built once by the scoring consumer, never copied per message. What differs per
// message — the message, its source, its output and its trace — is passed alongside.
import type { EvaluationLogSink } from '../otel/evaluation-logs.ts';
import type { Tracer } from '@opentelemetry/api';
import type { Logger } from 'pino';
import type { JudgeSpend } from '../src/engine/budget/judge-spend.ts';
import type { ResolvedConfig } from '../src/engine/config/resolve-config.ts';
import type { Replay } from '../src/kit/contracts/common.ts';
import type { ScorerServices } from '../src/kit/scorer-services.ts';
import type { FetchMessage } from './read-run-back.ts';
import type { PublishRetry } from './publish-until-acknowledged.ts';
import type { ServiceStats } from './service-stats.ts';
import type { ObserveRecord } from './emitter/emitter-context.ts';
import type { BatchJudge } from '../src/engine/judge-batch/batch-judge.ts';
import type { CodeScoresTelemetry } from '../src/engine/pipeline/score-run-event.ts';

export type MessageContext = {
  config: ResolvedConfig;
  stats: ServiceStats;
  logger: Logger;
  /** The tracer of the score spans (default: the global one). */
  tracer?: Tracer;
  /** Wall clock in ms: record times, dead letters and the event-to-result latency. */
  now: () => number;
  /** Aborted on a hard stop: in-flight scorers stop and publishing gives up. */
  hardStop: AbortSignal;
  /** Pacing of the retries of a publish that failed. */
  publishRetry: PublishRetry;
  /** What every scorer run gets for its steps (built once by service/start-service.ts). */
  services?: ScorerServices;
  /** Judge budgets and cost (src/engine/budget/judge-spend.ts), built once by service/start-service.ts. */
  spend?: JudgeSpend;
  /** Set by a replay (service/replay.ts): every score and decision record is marked with it. */
  replay?: Replay;
  /** Reads a run event back from the runs topic by its position, for a re-score (docs/feedback.md); without it every re-score is `run_unavailable`. */
  fetchRun?: FetchMessage;
  /** Called per acknowledged score record with its event-to-result latency, when it has one (metrics: otel/service-metrics.ts). */
  observeRecord?: ObserveRecord;
  /** Set when the logs signal is on: each acknowledged score record also leaves as an evaluation log record (otel/evaluation-logs.ts). */
  evaluations?: EvaluationLogSink;
  /** Where code scorers' scores show on the trace: the run's shared span (default) or only their log records. */
  codeScores?: CodeScoresTelemetry;
  /** The batch tier's judge (config `judge.batch`): without it a batch-mode binding judges live (a replay). */
  batchJudge?: BatchJudge;
};
