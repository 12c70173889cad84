// The feedback join's metrics (docs/feedback.md, docs/observability.md): per scorer version, the
// figures of its latest window — κ, weighted κ (quadratic), accuracy, labelled pairs and the
// confusion counts by (human, judge) label — plus the join's own state, what it could not use, and
// the re-scores it asked for or refused (a thread score's disagreement is refused, never asked).
// Observed at collection time from the join's ledger and counters: nothing extra per message.
import type { BatchObservableResult, Meter } from '@opentelemetry/api';

/** What the instruments read; the join's ledger and counters have this shape. */
export type AgreementSource = {
  latestWindows(): ReadonlyArray<{
    scorerId: string;
    scorerVersion: string | undefined;
    n: number;
    accuracy: number | undefined;
    kappa: number | undefined;
    weightedKappa?: { quadratic: number | undefined } | undefined;
    confusion: { labels: readonly string[]; counts: number[][] };
  }>;
  joinState(): { runs: number; scores: number; feedback: number };
  deadLettersByCode: ReadonlyMap<string, number>;
  /** Disagreeing pairs that asked for a re-score, and those refused one (thread scores). */
  rescores(): { requested: number; refused: number };
};

export function registerAgreementMetrics(meter: Meter, source: AgreementSource): { unregister(): void } {
  const kappa = meter.createObservableGauge('scorestream.agreement.kappa', { description: "Cohen's κ of judge and people in the scorer version's latest window (absent where undefined)" });
  const weighted = meter.createObservableGauge('scorestream.agreement.weighted_kappa', { description: 'Quadratic weighted κ in the latest window' });
  const accuracy = meter.createObservableGauge('scorestream.agreement.accuracy', { description: 'Share of labelled pairs where judge and person agree, latest window' });
  const pairs = meter.createObservableGauge('scorestream.agreement.pairs', { description: 'Labelled (feedback, score) pairs in the latest window', unit: '{pair}' });
  const confusion = meter.createObservableGauge('scorestream.agreement.confusion', { description: 'Pairs in the latest window by the human label and the judge label', unit: '{pair}' });
  const state = meter.createObservableGauge('scorestream.agreement.join_state', { description: 'Items the join holds while they wait for their partner, by side', unit: '{item}' });
  const deadLetters = meter.createObservableCounter('scorestream.agreement.dead_letters', { description: 'Feedback dead-lettered, by reason', unit: '{record}' });
  const rescores = meter.createObservableCounter('scorestream.agreement.rescores', {
    description: 'Disagreeing pairs by what the join did: requested (a re-score asked of the service), refused_thread_score (a thread score: never re-scored on feedback)',
    unit: '{pair}',
  });
  const callback = (observer: BatchObservableResult) => {
    for (const window of source.latestWindows()) {
      const attributes = { 'scorestream.scorer.id': window.scorerId, 'scorestream.scorer.version': window.scorerVersion ?? '' };
      if (window.kappa !== undefined) observer.observe(kappa, window.kappa, attributes);
      if (window.weightedKappa?.quadratic !== undefined) observer.observe(weighted, window.weightedKappa.quadratic, attributes);
      if (window.accuracy !== undefined) observer.observe(accuracy, window.accuracy, attributes);
      observer.observe(pairs, window.n, attributes);
      window.confusion.labels.forEach((human, row) => {
        window.confusion.labels.forEach((judge, column) => observer.observe(confusion, window.confusion.counts[row]![column]!, { ...attributes, 'scorestream.agreement.human': human, 'scorestream.agreement.judge': judge }));
      });
    }
    const held = source.joinState();
    observer.observe(state, held.scores, { 'scorestream.agreement.side': 'score' });
    observer.observe(state, held.feedback, { 'scorestream.agreement.side': 'feedback' });
    for (const [code, count] of source.deadLettersByCode) observer.observe(deadLetters, count, { 'scorestream.dead_letter.code': code });
    const asked = source.rescores();
    observer.observe(rescores, asked.requested, { 'scorestream.agreement.rescore.outcome': 'requested' });
    observer.observe(rescores, asked.refused, { 'scorestream.agreement.rescore.outcome': 'refused_thread_score' });
  };
  const observables = [kappa, weighted, accuracy, pairs, confusion, state, deadLetters, rescores];
  meter.addBatchObservableCallback(callback, observables);
  return { unregister: () => meter.removeBatchObservableCallback(callback, observables) };
}
