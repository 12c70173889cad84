// Runs the labelled set through the eval scorers with one judge model and gathers what the
// report needs: each case's outcome (label, not scorable, failed) and every judge call (latency,
// tokens), metered by wrapping the model, so the figures are the same whatever the scorer does
// inside (structured-output fallbacks, classifier retries). Scorers run one after another, so
// each scorer's calls/s is its own.
import type { LanguageModelV4 } from '@ai-sdk/provider';
import { wrapLanguageModel } from 'ai';
import type { LanguageModelMiddleware } from 'ai';
import { agentRunEventSchema } from '../../src/kit/contracts/agent-run-event.ts';
import { collectRunFacts } from '../../src/engine/pipeline/run-facts.ts';
import { buildScorerInput } from '../../src/engine/pipeline/scorer-input.ts';
import type { JudgeModelSettings } from '../../src/kit/judge/types.ts';
import type { ScorerRun } from '../../src/kit/scorer/types.ts';
import { agreementFigures, costFigures } from './agreement.ts';
import type { AgreementFigures, CaseOutcome, CostFigures, JudgeCallRecord, Threshold } from './agreement.ts';
import { createEvalScorer } from './eval-scorers.ts';
import type { LabelledCase } from './labelled-cases.ts';
import { labelledRunEvent } from './labelled-runs.ts';
import { evalScorerIds, labelSets, thresholds } from './scorer-labels.ts';
import type { EvalScorerId } from './scorer-labels.ts';

export type RunJudgeEvalOptions = {
  model: LanguageModelV4;
  cases: readonly LabelledCase[];
  /** Default: every eval scorer. */
  scorerIds?: readonly EvalScorerId[];
  /** At most this many cases per scorer, taken in turn from each label. Default: all. */
  limit?: number;
  /** Cases scored at once per scorer. Default 1 (a local model serialises its calls anyway). */
  concurrency?: number;
  /** A case whose scorer run takes longer fails. Default 180 000 ms. */
  timeoutMs?: number;
  /** Judge settings on top of temperature 0, e.g. `{ timeout, maxRetries }` for a slow judge. */
  modelSettings?: JudgeModelSettings;
  /** Milliseconds, for latencies and wall times. Default performance.now. */
  now?: () => number;
  /** Called after each case, e.g. to show progress. */
  onCase?: (progress: { scorerId: EvalScorerId; done: number; of: number; result: CaseResult }) => void;
};

export type CaseResult = { caseId: string; score?: number; outcome: CaseOutcome; calls: JudgeCallRecord[] };

export type ScorerEvalReport = {
  scorerId: EvalScorerId;
  labels: readonly string[];
  /** Undefined for the classifier: its label is the selected choice. */
  threshold: Threshold | undefined;
  agreement: AgreementFigures;
  cost: CostFigures;
  wallTimeMs: number;
  cases: CaseResult[];
};

export async function runJudgeEval(options: RunJudgeEvalOptions): Promise<ScorerEvalReport[]> {
  const now = options.now ?? (() => performance.now());
  const reports: ScorerEvalReport[] = [];
  for (const scorerId of options.scorerIds ?? evalScorerIds) {
    const selected = selectCases(options.cases, scorerId, options.limit);
    const started = now();
    let done = 0;
    const cases = await mapConcurrently(selected, options.concurrency ?? 1, async (labelled) => {
      const result = await runCase(labelled, scorerId, options, now);
      done += 1;
      options.onCase?.({ scorerId, done, of: selected.length, result });
      return result;
    });
    const wallTimeMs = now() - started;
    reports.push({
      scorerId,
      labels: labelSets[scorerId],
      threshold: scorerId === 'support-tone' ? undefined : thresholds[scorerId],
      agreement: agreementFigures(labelSets[scorerId], cases.map((entry) => entry.outcome)),
      cost: costFigures(cases.flatMap((entry) => entry.calls), wallTimeMs),
      wallTimeMs,
      cases,
    });
  }
  return reports;
}

/**
 * The cases labelled for a scorer, at most `limit`, taken round-robin from each label in set
 * order, so a limited run stays as balanced as the set.
 */
export function selectCases(cases: readonly LabelledCase[], scorerId: EvalScorerId, limit?: number): LabelledCase[] {
  const byLabel = new Map<string, LabelledCase[]>();
  for (const label of labelSets[scorerId]) byLabel.set(label, []);
  for (const labelled of cases) {
    const expected = labelled.labels[scorerId];
    if (expected !== undefined) byLabel.get(expected)!.push(labelled);
  }
  const total = [...byLabel.values()].reduce((sum, group) => sum + group.length, 0);
  const wanted = Math.min(limit ?? total, total);
  const selected: LabelledCase[] = [];
  for (let round = 0; selected.length < wanted; round += 1) {
    for (const group of byLabel.values()) {
      if (round < group.length && selected.length < wanted) selected.push(group[round]!);
    }
  }
  return selected;
}

async function runCase(labelled: LabelledCase, scorerId: EvalScorerId, options: RunJudgeEvalOptions, now: () => number): Promise<CaseResult> {
  const expected = labelled.labels[scorerId]!;
  const calls: JudgeCallRecord[] = [];
  const { scorer, label } = createEvalScorer(scorerId, meteredModel(options.model, calls, now), options.modelSettings);
  try {
    const result = await scorer.run(scorerInput(labelled), { abortSignal: AbortSignal.timeout(options.timeoutMs ?? 180_000) });
    if (result.notScorable !== undefined) {
      const reason = result.notScorable.reason;
      return { caseId: labelled.id, calls, outcome: { status: 'not-scorable', expected, ...(reason === undefined ? {} : { reason }) } };
    }
    return { caseId: labelled.id, score: result.score, calls, outcome: { status: 'scored', expected, predicted: label(result) } };
  } catch (error) {
    return { caseId: labelled.id, calls, outcome: { status: 'failed', expected, error: describeError(error) } };
  }
}

/** What the live service hands a scorer for this case's run event. */
function scorerInput(labelled: LabelledCase): ScorerRun {
  const event = agentRunEventSchema.parse(labelledRunEvent(labelled));
  const facts = collectRunFacts(event, { topic: 'judge-quality', partition: 0, offset: '0' }, {});
  return buildScorerInput(facts) as ScorerRun;
}

/** The model, recording each call's duration, tokens and whether it failed into `calls`. */
export function meteredModel(model: LanguageModelV4, calls: JudgeCallRecord[], now: () => number): LanguageModelV4 {
  const middleware: LanguageModelMiddleware = {
    specificationVersion: 'v4',
    async wrapGenerate({ doGenerate }) {
      const started = now();
      try {
        const result = await doGenerate();
        const inputTokens = result.usage.inputTokens.total;
        const outputTokens = result.usage.outputTokens.total;
        const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
        calls.push({
          durationMs: now() - started,
          failed: false,
          ...(inputTokens === undefined ? {} : { inputTokens }),
          ...(outputTokens === undefined ? {} : { outputTokens }),
          text: text.slice(0, 2_000),
        });
        return result;
      } catch (error) {
        calls.push({ durationMs: now() - started, failed: true });
        throw error;
      }
    },
  };
  return wrapLanguageModel({ model, middleware });
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.name}: ${error.message}${cause}`.slice(0, 500);
}

async function mapConcurrently<T, R>(items: readonly T[], concurrency: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
  return results;
}
