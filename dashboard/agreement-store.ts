// What the feedback view shows, from the agreements topic (AgreementRecord v1): the window
// summaries per scorer version (κ, weighted κ, accuracy, confusion counts over time) and the
// pairs where judge and person disagree. Bounded: the windows that end inside the look-back, at
// most `maxWindows` of them, and the `maxDisagreements` most recent disagreeing pairs inside it;
// agreeing pairs are not kept (the window summaries count them). A window published again (a
// rolling window updated) replaces the one kept, and so does a pair published again under its
// agreementId (a changed vote, a thread pair moved to a later version; docs/feedback.md): the
// later measurement stands, and a pair that now agrees takes its disagreement off the list.
import type { AgreementPair, AgreementWindow } from '../src/kit/contracts/agreement-record.ts';
import { NO_TENANT } from './aggregates.ts';

export type DisagreementSummary = {
  agreementId: string;
  scoreId: string;
  runId: string;
  scorer: string;
  version: string;
  agent?: string;
  tenant: string;
  judge: AgreementPair['judge'];
  human: AgreementPair['human'];
  /** Epoch ms of measuredAt. */
  at: number;
};

export type WindowSummary = {
  scorer: string;
  version: string;
  /** Epoch ms of the window's start and end. */
  start: number;
  end: number;
  n: number;
  agreements: number;
  accuracy: number | null;
  kappa: number | null;
  weightedKappa?: { linear: number | null; quadratic: number | null };
  confusion: AgreementWindow['confusion'];
};

export type AgreementView = { windows: WindowSummary[]; disagreements: DisagreementSummary[] };

export class AgreementStore {
  private readonly windows = new Map<string, WindowSummary & { measuredAt: number }>();
  private readonly disagreements: DisagreementSummary[] = [];

  readonly maxWindows: number;
  readonly maxDisagreements: number;
  readonly windowMs: number;
  constructor(options: { maxWindows: number; maxDisagreements: number; windowMs: number }) {
    this.maxWindows = options.maxWindows;
    this.maxDisagreements = options.maxDisagreements;
    this.windowMs = options.windowMs;
  }

  /**
   * Counts a pair: its summary when judge and person disagree; `resolved` when it replaces a kept
   * disagreement and now agrees; undefined when it is older than the look-back or than the
   * measurement of the same pair already kept.
   */
  addPair(pair: AgreementPair, nowMs: number): { disagreement?: DisagreementSummary; resolved?: string } | undefined {
    const at = Date.parse(pair.measuredAt);
    if (!(at >= nowMs - this.windowMs)) return undefined;
    const earlier = this.disagreements.findIndex((kept) => kept.agreementId === pair.agreementId);
    if (earlier >= 0) {
      if (this.disagreements[earlier]!.at > at) return undefined;
      this.disagreements.splice(earlier, 1);
    }
    if (pair.agree) return earlier >= 0 ? { resolved: pair.agreementId } : {};
    const disagreement: DisagreementSummary = {
      agreementId: pair.agreementId,
      scoreId: pair.scoreId,
      runId: pair.runId,
      scorer: pair.scorerId,
      version: pair.scorerVersion ?? '',
      ...(pair.entity === undefined ? {} : { agent: pair.entity.id }),
      tenant: pair.metadata?.tenantId || NO_TENANT,
      judge: pair.judge,
      human: pair.human,
      at,
    };
    this.disagreements.push(disagreement);
    if (this.disagreements.length > this.maxDisagreements) this.disagreements.splice(0, this.disagreements.length - this.maxDisagreements);
    return { disagreement };
  }

  /** Keeps a window summary (replacing an earlier publication of the same window); undefined when it ended before the look-back. */
  addWindow(window: AgreementWindow, nowMs: number): WindowSummary | undefined {
    const end = Date.parse(window.windowEnd);
    const measuredAt = Date.parse(window.measuredAt);
    if (!(end >= nowMs - this.windowMs)) return undefined;
    const version = window.scorerVersion ?? '';
    const key = `${window.scorerId}\u0000${version}\u0000${window.windowStart}\u0000${window.windowEnd}`;
    const known = this.windows.get(key);
    if (known !== undefined && known.measuredAt > measuredAt) return undefined;
    const summary: WindowSummary = {
      scorer: window.scorerId,
      version,
      start: Date.parse(window.windowStart),
      end,
      n: window.n,
      agreements: window.agreements,
      accuracy: window.accuracy,
      kappa: window.kappa,
      ...(window.weightedKappa === undefined ? {} : { weightedKappa: window.weightedKappa }),
      confusion: window.confusion,
    };
    this.windows.delete(key);
    this.windows.set(key, { ...summary, measuredAt });
    while (this.windows.size > this.maxWindows) this.windows.delete(this.windows.keys().next().value as string);
    return summary;
  }

  view(nowMs: number): AgreementView {
    this.prune(nowMs);
    return {
      windows: [...this.windows.values()].map(({ measuredAt: _measuredAt, ...summary }) => summary).sort((a, b) => a.end - b.end),
      disagreements: [...this.disagreements],
    };
  }

  get windowCount(): number {
    return this.windows.size;
  }

  get disagreementCount(): number {
    return this.disagreements.length;
  }

  private prune(nowMs: number): void {
    const oldest = nowMs - this.windowMs;
    for (const [key, window] of this.windows) if (window.end < oldest) this.windows.delete(key);
    const kept = this.disagreements.findIndex((pair) => pair.at >= oldest);
    this.disagreements.splice(0, kept < 0 ? this.disagreements.length : kept);
  }
}
