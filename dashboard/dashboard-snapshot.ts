// What a page receives first, before the live events (http-server.ts, `/api/snapshot` and the
// first event of a stream): everything the dashboard holds for a page, and its counts.
import type { AgreementView } from './agreement-store.ts';
import type { RecordSummary } from './record-summary.ts';
import type { ThreadSummary } from './thread-store.ts';
import type { WireBuckets } from './wire-buckets.ts';

/** Where the feedback view's records come from: no topic configured, a topic that does not exist, or one being read. */
export type AgreementsSource = { topic?: string; state: 'off' | 'missing' | 'reading' };

export type Snapshot = {
  epoch: string;
  lastEventId: string;
  now: number;
  windowMs: number;
  bucketMs: number;
  binEdges: readonly number[];
  buckets: WireBuckets;
  recent: RecordSummary[];
  traceLinks: boolean;
  counts: DashboardCounts;
  agreements: AgreementsSource & AgreementView;
  /** The threads kept (those scored in the look-back, and those the latest-score view names), most recently scored first. */
  threads: ThreadSummary[];
};

export type DashboardCounts = {
  records: number;
  decisions: number;
  duplicates: number;
  outsideWindow: number;
  invalid: number;
  agreements: number;
  ringRecords: number;
  ringBytes: number;
  runs: number;
  buckets: number;
  agreementWindows: number;
  disagreements: number;
  threads: number;
  /** Records read from the latest-score view (each thread's latest score per scorer; thread-store.ts). */
  latestScores: number;
};
