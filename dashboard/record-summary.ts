// The row a record gets in the page's table and live feed: a few fields and a short reason, so
// the snapshot of recent records stays small; the whole record is fetched when a row is opened.
import type { RescoreMark } from '../src/kit/contracts/rescore-request.ts';
import type { ScoreRecord } from '../src/kit/contracts/score-record.ts';
import { seriesOf } from './aggregates.ts';
import type { TraceLink } from './trace-link.ts';

export type RecordSummary = {
  scoreId: string;
  runId: string;
  scorer: string;
  /** The binding's version; '' without one. */
  version: string;
  agent: string;
  tenant: string;
  status: ScoreRecord['status'];
  score?: number;
  /** Scored records of a binding that declares `pass` (docs/alerts.md). */
  verdict?: 'pass' | 'fail';
  /** The scorer's reason, the not-scorable reason or the error message, cut to a line's length. */
  reason: string;
  /** Epoch ms of scoredAt. */
  at: number;
  traceId?: string;
  traceUrl?: string;
  /** Present on a re-score (docs/feedback.md, re-scoring): the feedback it was scored again for, and why. */
  rescore?: RescoreMark;
};

const REASON_CHARS = 240;

export function reasonText(record: ScoreRecord): string {
  const text =
    record.status === 'scored'
      ? typeof record.reason === 'string'
        ? record.reason
        : record.reason === undefined
          ? ''
          : JSON.stringify(record.reason) ?? ''
      : record.status === 'not_scorable'
        ? `not scorable at ${record.notScorable.step}${record.notScorable.reason ? `: ${record.notScorable.reason}` : ''}`
        : `failed at ${record.error.failedStep}: ${record.error.name}: ${record.error.message}`;
  return text.length > REASON_CHARS ? `${text.slice(0, REASON_CHARS - 1)}…` : text;
}

export function traceUrlOf(record: { trace?: { traceId?: string | undefined; spanId?: string | undefined } | undefined }, link: TraceLink | undefined): string | undefined {
  const traceId = record.trace?.traceId;
  return link === undefined || traceId === undefined ? undefined : link({ traceId, spanId: record.trace?.spanId });
}

export function summarize(record: ScoreRecord, link: TraceLink | undefined): RecordSummary {
  const names = seriesOf(record);
  const traceUrl = traceUrlOf(record, link);
  return {
    scoreId: record.scoreId,
    runId: record.runId,
    scorer: names.scorer,
    version: names.version,
    agent: names.agent,
    tenant: names.tenant,
    status: record.status,
    ...(record.status === 'scored' ? { score: record.score, ...(record.verdict === undefined ? {} : { verdict: record.verdict }) } : {}),
    reason: reasonText(record),
    at: Date.parse(record.scoredAt),
    ...(record.trace?.traceId === undefined ? {} : { traceId: record.trace.traceId }),
    ...(traceUrl === undefined ? {} : { traceUrl }),
    ...(record.rescore === undefined ? {} : { rescore: { feedbackId: record.rescore.feedbackId, reason: record.rescore.reason } }),
  };
}
