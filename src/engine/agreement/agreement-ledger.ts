// What the live join has measured (docs/feedback.md, the join): every agreement pair by its
// agreementId, and per scorer version the confusion counts of each window (tumbling windows of
// `windowMs`, by the pair's measuredAt). Pure and bounded by `retentionMs` (pairs and windows
// older are forgotten) and `maxPairs` / `maxWindows` (the oldest go first, counted).
// It is what makes the join idempotent: a pair measured again with the same labels — a record
// read twice, a join redone after a restart — is `same` and not published or counted again; one
// whose person changed their mind (the same feedbackId, another value) is `changed`: its old
// labels are taken back and the new ones counted. A thread pair (docs/feedback.md, feedback on a
// thread) keeps its agreementId whichever version of the thread's score it is compared with: a
// later version is `changed` too (taken back, counted again, published naming it), and an earlier
// one than the ledger holds is `stale` — a replay passing through a state the live join had left
// behind, since the compared version only moves forward (compared-version.ts). After a restart the
// service feeds it the pairs already on the agreements topic first (service/agreement-join.ts).
import type { AgreementPair, AgreementWindow } from '../../kit/contracts/agreement-record.ts';
import { AGREEMENT_RECORD_SCHEMA_VERSION } from '../../kit/contracts/agreement-record.ts';
import { agreementFigures } from './agreement-figures.ts';
import type { AgreementFigures } from './agreement-figures.ts';
import type { ConfusionMatrix } from './confusion-matrix.ts';
import { countPair, emptyConfusionMatrix, uncountPair } from './confusion-matrix.ts';
import { VERDICT_SCALE } from './agreement-labels.ts';

export type AgreementLedgerOptions = { windowMs: number; retentionMs: number; maxPairs: number; maxWindows: number };

export type PairOutcome = 'new' | 'changed' | 'same' | 'stale' | 'too_old';

/** A counted pair; a thread pair also the version it was compared with (a run pair's record is implied by its agreementId). */
type SeenPair = { windowKey: string; human: string; judge: string; atMs: number; thread?: { version: number; scoreId: string } };
type Window = { scorerId: string; scorerVersion: string | undefined; startMs: number; matrix: ConfusionMatrix };

export type WindowFigures = AgreementFigures & { scorerId: string; scorerVersion: string | undefined; windowStart: string; confusion: ConfusionMatrix };

export class AgreementLedger {
  private readonly pairs = new Map<string, SeenPair>();
  private readonly windows = new Map<string, Window>();
  private readonly dirty = new Set<string>();
  private forgottenPairs = 0;
  private forgottenWindows = 0;
  readonly options: AgreementLedgerOptions;

  constructor(options: AgreementLedgerOptions) {
    for (const [name, value] of Object.entries(options)) {
      if (!Number.isInteger(value) || value < 1) throw new RangeError(`AgreementLedger: ${name} must be a positive integer, got ${value}`);
    }
    if (options.retentionMs < options.windowMs) throw new RangeError(`AgreementLedger: retentionMs (${options.retentionMs}) must be at least windowMs (${options.windowMs})`);
    this.options = options;
  }

  /** Counts a pair into its window unless it was counted with these labels already. */
  record(pair: AgreementPair, nowMs: number): PairOutcome {
    const atMs = Date.parse(pair.measuredAt);
    if (atMs < nowMs - this.options.retentionMs) return 'too_old';
    const seen = this.pairs.get(pair.agreementId);
    if (seen?.thread !== undefined && pair.thread !== undefined && pair.thread.version < seen.thread.version) return 'stale';
    if (seen !== undefined && seen.human === pair.human.label && seen.judge === pair.judge.label && seen.thread?.scoreId === (pair.thread === undefined ? undefined : pair.scoreId)) return 'same';
    if (seen !== undefined) {
      const old = this.windows.get(seen.windowKey);
      if (old !== undefined) {
        uncountPair(old.matrix, { reference: seen.human, predicted: seen.judge });
        this.dirty.add(seen.windowKey);
      }
      this.pairs.delete(pair.agreementId);
    }
    const windowKey = this.windowFor(pair, atMs);
    countPair(this.windows.get(windowKey)!.matrix, { reference: pair.human.label, predicted: pair.judge.label });
    this.dirty.add(windowKey);
    this.pairs.set(pair.agreementId, { windowKey, human: pair.human.label, judge: pair.judge.label, atMs, ...(pair.thread === undefined ? {} : { thread: { version: pair.thread.version, scoreId: pair.scoreId } }) });
    if (this.pairs.size > this.options.maxPairs) {
      this.pairs.delete(this.pairs.keys().next().value as string);
      this.forgottenPairs += 1;
    }
    return seen === undefined ? 'new' : 'changed';
  }

  /** The windows changed since the last call, as records to publish (a window published again replaces itself). */
  takeChangedWindows(measuredAt: string): AgreementWindow[] {
    const records: AgreementWindow[] = [];
    for (const key of this.dirty) {
      const window = this.windows.get(key);
      if (window !== undefined) records.push(this.windowRecord(window, measuredAt));
    }
    this.dirty.clear();
    return records;
  }

  /** Forgets the pairs and windows older than retentionMs. */
  prune(nowMs: number): void {
    const oldest = nowMs - this.options.retentionMs;
    for (const [id, pair] of this.pairs) if (pair.atMs < oldest) this.pairs.delete(id);
    for (const [key, window] of this.windows) {
      if (window.startMs + this.options.windowMs >= oldest) continue;
      this.windows.delete(key);
      this.dirty.delete(key);
    }
  }

  /** The most recent window of each scorer version, for the metrics. */
  latestWindows(): WindowFigures[] {
    const latest = new Map<string, Window>();
    for (const window of this.windows.values()) {
      const key = `${window.scorerId}\u0000${window.scorerVersion ?? ''}`;
      const known = latest.get(key);
      if (known === undefined || known.startMs < window.startMs) latest.set(key, window);
    }
    return [...latest.values()].map((window) => ({
      ...agreementFigures(window.matrix, { ordinal: true }),
      scorerId: window.scorerId,
      scorerVersion: window.scorerVersion,
      windowStart: new Date(window.startMs).toISOString(),
      confusion: window.matrix,
    }));
  }

  stats(): { pairs: number; windows: number; forgottenPairs: number; forgottenWindows: number } {
    return { pairs: this.pairs.size, windows: this.windows.size, forgottenPairs: this.forgottenPairs, forgottenWindows: this.forgottenWindows };
  }

  private windowFor(pair: AgreementPair, atMs: number): string {
    const startMs = Math.floor(atMs / this.options.windowMs) * this.options.windowMs;
    const key = JSON.stringify([pair.scorerId, pair.scorerVersion ?? null, startMs]);
    if (this.windows.has(key)) return key;
    if (this.windows.size >= this.options.maxWindows) {
      const oldest = this.windows.keys().next().value as string;
      this.windows.delete(oldest);
      this.dirty.delete(oldest);
      this.forgottenWindows += 1;
    }
    this.windows.set(key, { scorerId: pair.scorerId, scorerVersion: pair.scorerVersion, startMs, matrix: emptyConfusionMatrix(VERDICT_SCALE) });
    return key;
  }

  private windowRecord(window: Window, measuredAt: string): AgreementWindow {
    // Two labels in order: weighted κ equals κ; it is published so ordinal readers need no special case.
    const figures = agreementFigures(window.matrix, { ordinal: true });
    return {
      schemaVersion: AGREEMENT_RECORD_SCHEMA_VERSION,
      kind: 'window',
      scorerId: window.scorerId,
      ...(window.scorerVersion === undefined ? {} : { scorerVersion: window.scorerVersion }),
      windowStart: new Date(window.startMs).toISOString(),
      windowEnd: new Date(window.startMs + this.options.windowMs).toISOString(),
      n: figures.n,
      agreements: figures.agreements,
      accuracy: figures.accuracy ?? null,
      kappa: figures.kappa ?? null,
      weightedKappa: { linear: figures.weightedKappa?.linear ?? null, quadratic: figures.weightedKappa?.quadratic ?? null },
      confusion: { labels: [...window.matrix.labels], counts: window.matrix.counts.map((row) => [...row]) },
      measuredAt,
    };
  }
}
