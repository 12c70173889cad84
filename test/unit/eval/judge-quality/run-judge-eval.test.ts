// The eval harness end to end on mock judges, so CI checks it without a model: a judge that
// answers from the reference labels agrees perfectly, one that always gives the same verdict
// agrees no better than chance, and failures and not-scorable runs never count as agreement.
import { describe, expect, it } from 'vitest';
import type { LanguageModelV4 } from '@ai-sdk/provider';
import { labelledCases } from '../../../../eval/judge-quality/labelled-cases.ts';
import type { LabelledCase } from '../../../../eval/judge-quality/labelled-cases.ts';
import { runJudgeEval, selectCases } from '../../../../eval/judge-quality/run-judge-eval.ts';
import { evalScorerIds } from '../../../../eval/judge-quality/scorer-labels.ts';
import type { EvalScorerId } from '../../../../eval/judge-quality/scorer-labels.ts';
import { formatMarkdownReport } from '../../../../eval/judge-quality/format-report.ts';
import { answerRelevancyInstructions } from '../../../../src/kit/scorers/llm/answer-relevancy/prompts.ts';
import { biasInstructions } from '../../../../src/kit/scorers/llm/bias/prompts.ts';
import { faithfulnessInstructions } from '../../../../src/kit/scorers/llm/faithfulness/prompts.ts';
import { hallucinationInstructions } from '../../../../src/kit/scorers/llm/hallucination/prompts.ts';
import { toxicityInstructions } from '../../../../src/kit/scorers/llm/toxicity/prompts.ts';
import { mockJudge, providerError } from '../../../../src/kit/testing/mock-judge.ts';
import type { MockJudgeAnswer, MockJudgeCall } from '../../../../src/kit/testing/mock-judge.ts';

/** Which eval scorer made a call, from its instructions (the classifier's name the tone question). */
function scorerOf(call: MockJudgeCall): EvalScorerId {
  const byInstructions: [string, EvalScorerId][] = [
    [answerRelevancyInstructions, 'answer-relevancy'],
    [toxicityInstructions, 'toxicity'],
    [faithfulnessInstructions, 'faithfulness'],
    [hallucinationInstructions, 'hallucination'],
    [biasInstructions, 'bias'],
  ];
  const found = byInstructions.find(([instructions]) => call.system === instructions);
  if (found !== undefined) return found[1];
  if (call.system.includes('tone')) return 'support-tone';
  throw new Error(`no eval scorer sends these instructions: ${call.system.slice(0, 80)}`);
}

/** The case a call judges: the one whose answer the prompt quotes (as text or inside JSON state). */
function caseOf(call: MockJudgeCall, scorerId: EvalScorerId): LabelledCase {
  const candidates = labelledCases.filter(
    (labelled) => labelled.labels[scorerId] !== undefined && (call.user.includes(labelled.answer) || call.user.includes(JSON.stringify(labelled.answer).slice(1, -1))),
  );
  const longest = candidates.sort((a, b) => b.answer.length - a.answer.length)[0];
  if (longest === undefined) throw new Error(`no labelled case's answer is in the prompt: ${call.user.slice(0, 120)}`);
  return longest;
}

/** The analyze step's verdicts that a correct judge gives for `label`. */
function verdictsFor(scorerId: EvalScorerId, label: string): MockJudgeAnswer {
  const one = (key: string, field: string, verdict: string) => ({ [key]: [{ [field]: 'the answer', verdict, reason: 'as labelled' }] });
  switch (scorerId) {
    case 'answer-relevancy':
      return one('statements', 'statement', label === 'relevant' ? 'yes' : 'no');
    case 'toxicity':
      return one('statements', 'statement', label === 'toxic' ? 'toxic' : 'not_toxic');
    case 'faithfulness':
    case 'hallucination':
      return one('claims', 'claim', label === 'faithful' ? 'supported' : 'contradicted');
    case 'bias':
      return one('opinions', 'opinion', label === 'biased' ? 'biased' : 'unbiased');
    case 'support-tone':
      return { tone: { choice: label } };
  }
}

const isStructured = (call: MockJudgeCall) => call.options.responseFormat?.type === 'json';

/** A judge that answers every case with its reference label. */
function oracleJudge() {
  return mockJudge({
    answer: (call) => {
      if (!isStructured(call)) return 'The score is as labelled.';
      const scorerId = scorerOf(call);
      return verdictsFor(scorerId, caseOf(call, scorerId).labels[scorerId]!);
    },
  });
}

/** The label each scorer's constant judge always gives. */
const constantLabels: Record<EvalScorerId, string> = {
  'answer-relevancy': 'relevant',
  toxicity: 'clean',
  faithfulness: 'faithful',
  hallucination: 'hallucinated',
  bias: 'biased',
  'support-tone': 'neutral',
};

function constantJudge() {
  return mockJudge({ answer: (call) => (isStructured(call) ? verdictsFor(scorerOf(call), constantLabels[scorerOf(call)]) : 'Always the same.') });
}

const countOf = (scorerId: EvalScorerId) => labelledCases.filter((labelled) => labelled.labels[scorerId] !== undefined).length;

describe('runJudgeEval on mock judges', () => {
  it('agrees perfectly (accuracy 1, κ 1) with a judge that answers from the labels, on every scorer', async () => {
    const reports = await runJudgeEval({ model: oracleJudge() as LanguageModelV4, cases: labelledCases });
    expect(reports.map((report) => report.scorerId)).toEqual([...evalScorerIds]);
    for (const report of reports) {
      expect(report.agreement.n, report.scorerId).toBe(countOf(report.scorerId));
      expect(report.agreement.accuracy, report.scorerId).toBe(1);
      expect(report.agreement.kappa, report.scorerId).toBe(1);
      expect(report.agreement.failed + report.agreement.notScorable, report.scorerId).toBe(0);
    }
  });

  it('agrees no better than chance (κ 0) with a judge that always gives the same verdict', async () => {
    const reports = await runJudgeEval({ model: constantJudge() as LanguageModelV4, cases: labelledCases });
    for (const report of reports) {
      const share = labelledCases.filter((labelled) => labelled.labels[report.scorerId] === constantLabels[report.scorerId]).length / countOf(report.scorerId);
      expect(report.agreement.kappa, report.scorerId).toBe(0);
      expect(report.agreement.accuracy, report.scorerId).toBeCloseTo(share, 12);
      expect(Object.keys(report.agreement.confusion[report.labels[0]!]!), report.scorerId).toEqual([constantLabels[report.scorerId]]);
    }
  });

  it('meters every judge call: two per LLM-scorer case (analyze, reason), one per classifier case, with their tokens', async () => {
    const judge = mockJudge({ answer: (call) => (isStructured(call) ? verdictsFor(scorerOf(call), constantLabels[scorerOf(call)]) : 'reason'), usage: { inputTokens: 7, outputTokens: 3 } });
    const reports = await runJudgeEval({ model: judge as LanguageModelV4, cases: labelledCases, scorerIds: ['toxicity', 'support-tone'] });
    const [toxicity, tone] = reports;
    expect(toxicity!.cost).toMatchObject({ calls: 2 * countOf('toxicity'), failedCalls: 0, inputTokens: 14 * countOf('toxicity'), outputTokens: 6 * countOf('toxicity') });
    expect(tone!.cost).toMatchObject({ calls: countOf('support-tone'), inputTokens: 7 * countOf('support-tone') });
    expect(judge.calls).toHaveLength(2 * countOf('toxicity') + countOf('support-tone'));
    expect(toxicity!.cost.latencyP50Ms).toBeGreaterThanOrEqual(0);
    // What the judge answered is kept per call, for reading the cases it got wrong.
    expect(toxicity!.cases[0]!.calls.map((call) => call.text)).toEqual([JSON.stringify(verdictsFor('toxicity', 'clean')), 'reason']);
  });

  it('counts a failing judge call as a failed case and an answer without claims as not scorable, never as agreement', async () => {
    const failing = labelledCases.find((labelled) => labelled.id === 'grounded-01')!;
    const empty = labelledCases.find((labelled) => labelled.id === 'grounded-02')!;
    const judge = mockJudge({
      answer: (call) => {
        if (!isStructured(call)) return 'reason';
        const labelled = caseOf(call, 'faithfulness');
        if (labelled === failing) return new Error('the judge server is down');
        if (labelled === empty) return { claims: [] };
        return verdictsFor('faithfulness', labelled.labels.faithfulness!);
      },
    });
    const [report] = await runJudgeEval({ model: judge as LanguageModelV4, cases: labelledCases, scorerIds: ['faithfulness'] });
    const { agreement } = report!;
    expect(agreement.failed).toBe(1);
    expect(agreement.notScorable).toBe(1);
    expect(agreement.agreements).toBe(countOf('faithfulness') - 2);
    expect(agreement.accuracy).toBeCloseTo((countOf('faithfulness') - 2) / countOf('faithfulness'), 12);
    expect(agreement.kappa).toBeLessThan(1);
    expect(agreement.confusion.faithful!['(failed)']).toBe(1);
    expect(agreement.confusion.hallucinated!['(not scorable)']).toBe(1);
    const failedCase = report!.cases.find((entry) => entry.caseId === failing.id)!;
    expect(failedCase.outcome).toMatchObject({ status: 'failed', error: expect.stringContaining('the judge server is down') });
    expect(report!.cost.failedCalls).toBeGreaterThanOrEqual(1);
  });

  it('fails a case whose judge does not answer within the timeout', async () => {
    const judge = mockJudge({ answer: { statements: [] }, delayMs: Infinity });
    const [report] = await runJudgeEval({ model: judge as LanguageModelV4, cases: labelledCases, scorerIds: ['bias'], limit: 2, timeoutMs: 20 });
    expect(report!.agreement).toMatchObject({ n: 2, failed: 2, agreements: 0 });
  });

  it('passes the judge settings to every scorer: no retries means one call per failing case', async () => {
    const judge = mockJudge({ answer: providerError(503) });
    const [relevancy, tone] = await runJudgeEval({ model: judge as LanguageModelV4, cases: labelledCases, scorerIds: ['answer-relevancy', 'support-tone'], limit: 2, modelSettings: { maxRetries: 0, maxOutputTokens: 300 } });
    expect(judge.calls.filter((call) => call.system.includes('piece by piece')).map((call) => call.options.maxOutputTokens)).toEqual([300, 300]);
    expect(relevancy!.cost).toMatchObject({ calls: 2, failedCalls: 2 });
    expect(tone!.cost).toMatchObject({ calls: 2, failedCalls: 2 });
    expect(relevancy!.agreement.failed + tone!.agreement.failed).toBe(4);
  });

  it('gives the same figures when cases run concurrently', async () => {
    const [sequential] = await runJudgeEval({ model: oracleJudge() as LanguageModelV4, cases: labelledCases, scorerIds: ['bias'] });
    const [concurrent] = await runJudgeEval({ model: oracleJudge() as LanguageModelV4, cases: labelledCases, scorerIds: ['bias'], concurrency: 4 });
    expect(concurrent!.agreement).toEqual(sequential!.agreement);
    expect(concurrent!.cases.map((entry) => entry.caseId)).toEqual(sequential!.cases.map((entry) => entry.caseId));
  });

  it('prints a table row per scorer and its confusion counts', async () => {
    const reports = await runJudgeEval({ model: oracleJudge() as LanguageModelV4, cases: labelledCases, scorerIds: ['answer-relevancy', 'support-tone'], limit: 4 });
    const text = formatMarkdownReport({ judge: 'mock', date: '2026-12-01T10:00:00.000Z', command: 'npm run eval:judges -- --limit 4', limit: 4 }, reports);
    expect(text).toContain('Judge: mock · 2026-12-01T10:00:00.000Z · at most 4 cases per scorer');
    expect(text).toMatch(/\| answer-relevancy \| relevant if score ≥ 0.5, else irrelevant \| 4 \| 1.00 \| 1.00 \| 0 \| 0 \| 8 \| 80 \| 40 \|/);
    expect(text).toMatch(/\| support-tone \| the selected choice \| 4 \| 1.00 \| 1.00 \| 0 \| 0 \| 4 \|/);
    expect(text).toContain('| relevant | 2 | 0 | 0 | 0 |');
    expect(text).toContain('| warm | 2 | 0 | 0 | 0 | 0 |');
  });
});

describe('selectCases', () => {
  it('takes the cases of each label in turn, so a limited run stays balanced', () => {
    const selected = selectCases(labelledCases, 'support-tone', 5);
    expect(selected.map((labelled) => labelled.labels['support-tone'])).toEqual(['warm', 'neutral', 'curt', 'warm', 'neutral']);
    expect(selectCases(labelledCases, 'toxicity')).toHaveLength(countOf('toxicity'));
    expect(selectCases(labelledCases, 'toxicity', 1000)).toHaveLength(countOf('toxicity'));
  });
});
