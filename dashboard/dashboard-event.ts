// The events the dashboard sends to its pages over Server-Sent Events (http-server.ts), one per
// record that changed what a page shows, each with its id (`<epoch>.<sequence>`, event-log.ts) so
// that a page that reconnects can be sent exactly what it missed.
import type { SeriesTally, SkipTally } from './aggregates.ts';
import type { DisagreementSummary, WindowSummary } from './agreement-store.ts';
import type { RecordSummary } from './record-summary.ts';
import type { ThreadSummary } from './thread-store.ts';

export type DecisionSummary = { runId: string; scorer: string; agent: string; tenant: string; reason: string; detail?: string; at: number };

type EventData = {
  /** `thread`: a thread scorer's record, its thread as it now is (the threads view). */
  record: { summary: RecordSummary; start: number; tally: SeriesTally; thread?: ThreadSummary };
  /** `thread`: a thread scorer's decision, its thread as it now is (the threads view). */
  decision: { decision: DecisionSummary; start: number; tally: SkipTally; thread?: ThreadSummary };
  /** A window summary, a disagreement (replacing one with its agreementId), or a kept disagreement whose pair now agrees. */
  agreement: { window: WindowSummary } | { disagreement: DisagreementSummary } | { resolved: string };
  /** A thread's latest score from the latest-score view, new to the dashboard: its thread as it now is. */
  thread: { thread: ThreadSummary };
};
export type DashboardEvent = { [Type in keyof EventData]: { id: string; type: Type; data: EventData[Type] } }[keyof EventData];

/** An event as the state makes it, before the log numbers it. */
export type UnnumberedEvent = { [Type in keyof EventData]: { type: Type; data: EventData[Type] } }[keyof EventData];
