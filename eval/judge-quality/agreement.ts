// The arithmetic of the judge-quality report (docs/judge-quality.md): how a scorer's score
// becomes a label, how its outcomes become labelled pairs for the agreement figures — accuracy,
// Cohen's κ, confusion counts, computed by src/engine/agreement/ as the live feedback join does — plus
// the cost side (calls, tokens, latency percentiles, calls/s). Pure: the runner
// (run-judge-eval.ts) gathers outcomes, this module only counts.
import { agreementFigures as figuresOf } from '../../src/engine/agreement/agreement-figures.ts';
import { confusionCounts, confusionMatrix } from '../../src/engine/agreement/confusion-matrix.ts';

/** How one labelled case ended for one scorer. */
export type CaseOutcome =
  | { status: 'scored'; expected: string; predicted: string }
  /** The scorer declined the run (notScorable): no label, never counted as agreement. */
  | { status: 'not-scorable'; expected: string; reason?: string }
  /** The run failed (judge error, unparseable answer, timeout): no label, never counted as agreement. */
  | { status: 'failed'; expected: string; error: string };

/** One judge call as the metering wrapper saw it; `text` is what the model answered (cut to 2,000 characters), for reading the cases it got wrong. */
export type JudgeCallRecord = { durationMs: number; inputTokens?: number; outputTokens?: number; failed: boolean; text?: string };

/**
 * Scores at or above `atLeast` (or strictly above `above`) get the label `upper`, the others
 * `lower`. Both forms exist so two complementary scorers (faithfulness = 1 − hallucination) can
 * put the same answers on the same side of one cut.
 */
export type Threshold = ({ atLeast: number } | { above: number }) & { upper: string; lower: string };

/** The label of a score under a threshold. */
export function labelForScore(score: number, threshold: Threshold): string {
  const isUpper = 'atLeast' in threshold ? score >= threshold.atLeast : score > threshold.above;
  return isUpper ? threshold.upper : threshold.lower;
}

/** The threshold in words, e.g. `relevant if score ≥ 0.5, else irrelevant`. */
export function describeThreshold(threshold: Threshold): string {
  const rule = 'atLeast' in threshold ? `≥ ${threshold.atLeast}` : `> ${threshold.above}`;
  return `${threshold.upper} if score ${rule}, else ${threshold.lower}`;
}

/** Where a case without a label (failed, not scorable) goes in the confusion counts. */
export const noLabel = {
  failed: '(failed)',
  notScorable: '(not scorable)',
} as const;

export type AgreementFigures = {
  /** Labelled cases run. */
  n: number;
  agreements: number;
  /** agreements / n; failed and not-scorable cases count as disagreements. Undefined when n = 0. */
  accuracy: number | undefined;
  /**
   * Cohen's κ over all n cases, the cases without a label counting as a category the reference
   * never uses: they count against observed agreement and add nothing to chance agreement.
   * Undefined when chance agreement is 1 (every reference and every judged label the same) or
   * n = 0: κ is not defined there.
   */
  kappa: number | undefined;
  /** confusion[expected][predicted] = count; predicted may be a noLabel category. */
  confusion: Record<string, Record<string, number>>;
  failed: number;
  notScorable: number;
};

/**
 * Accuracy, Cohen's κ and the confusion counts of a scorer's outcomes against its label set, by
 * the project's one agreement implementation (src/engine/agreement/): the cases without a label are two
 * more columns of the confusion matrix, categories the reference never uses.
 */
export function agreementFigures(labels: readonly string[], outcomes: readonly CaseOutcome[]): AgreementFigures {
  for (const outcome of outcomes) {
    if (!labels.includes(outcome.expected)) throw new RangeError(`expected label '${outcome.expected}' is not one of ${labels.join(', ')}`);
  }
  const matrix = confusionMatrix(
    [...labels, noLabel.failed, noLabel.notScorable],
    outcomes.map((outcome) => ({ reference: outcome.expected, predicted: predictedLabel(outcome) })),
  );
  const figures = figuresOf(matrix);
  const counts = confusionCounts(matrix);
  return {
    n: figures.n,
    agreements: figures.agreements,
    accuracy: figures.accuracy,
    kappa: figures.kappa,
    confusion: Object.fromEntries(labels.map((label) => [label, counts[label] ?? {}])),
    failed: outcomes.filter((outcome) => outcome.status === 'failed').length,
    notScorable: outcomes.filter((outcome) => outcome.status === 'not-scorable').length,
  };
}

function predictedLabel(outcome: CaseOutcome): string {
  if (outcome.status === 'scored') return outcome.predicted;
  return outcome.status === 'failed' ? noLabel.failed : noLabel.notScorable;
}

export type CostFigures = {
  calls: number;
  failedCalls: number;
  inputTokens: number;
  outputTokens: number;
  /** Per judge call, ms; undefined without calls. */
  latencyP50Ms: number | undefined;
  latencyP95Ms: number | undefined;
  /** Calls / the wall time the scorer's cases took, s⁻¹; undefined when no time passed. */
  callsPerSecond: number | undefined;
};

/** Calls, tokens, latency percentiles and throughput of one scorer's judge calls. */
export function costFigures(calls: readonly JudgeCallRecord[], wallTimeMs: number): CostFigures {
  const durations = calls.map((call) => call.durationMs).sort((a, b) => a - b);
  return {
    calls: calls.length,
    failedCalls: calls.filter((call) => call.failed).length,
    inputTokens: calls.reduce((sum, call) => sum + (call.inputTokens ?? 0), 0),
    outputTokens: calls.reduce((sum, call) => sum + (call.outputTokens ?? 0), 0),
    latencyP50Ms: percentile(durations, 50),
    latencyP95Ms: percentile(durations, 95),
    callsPerSecond: wallTimeMs > 0 ? calls.length / (wallTimeMs / 1000) : undefined,
  };
}

/** The nearest-rank percentile of ascending values: the smallest value with at least p% of them at or below it. */
export function percentile(ascending: readonly number[], p: number): number | undefined {
  if (ascending.length === 0) return undefined;
  const rank = Math.max(1, Math.ceil((p / 100) * ascending.length));
  return ascending[rank - 1];
}
