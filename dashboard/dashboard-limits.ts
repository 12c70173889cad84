// The dashboard's bounds (DashboardLimits): how much of each part of its state it keeps, so that
// its memory does not grow with the traffic it reads (docs/dashboard.md, memory bounded by
// design). The look-back and its bucket width are the caller's (start-dashboard.ts); the rest has defaults.

export type DashboardLimits = {
  windowMs: number;
  bucketMs: number;
  maxSeriesPerBucket: number;
  maxRecords: number;
  maxRecordBytes: number;
  /** Summaries a page receives in its snapshot. */
  recentLimit: number;
  maxRuns: number;
  maxEntriesPerRun: number;
  /** Score ids (and decision keys) remembered to count each once. */
  dedupeCapacity: number;
  /** Events kept for pages that reconnect. */
  eventLog: number;
  /** Agreement window summaries kept (all scorer versions), and disagreeing pairs. */
  maxAgreementWindows: number;
  maxDisagreements: number;
  /** Threads kept for the threads view (the least recently scored goes first), and versions kept per thread. */
  maxThreads: number;
  maxThreadVersions: number;
};

export const DEFAULT_LIMITS: Omit<DashboardLimits, 'windowMs' | 'bucketMs'> = {
  maxSeriesPerBucket: 200,
  maxRecords: 2_000,
  maxRecordBytes: 32 * 1024 * 1024,
  recentLimit: 1_000,
  maxRuns: 20_000,
  maxEntriesPerRun: 64,
  dedupeCapacity: 100_000,
  eventLog: 5_000,
  maxAgreementWindows: 5_000,
  maxDisagreements: 1_000,
  maxThreads: 1_000,
  maxThreadVersions: 16,
};
