// Every built-in judge prompt is laid out for the providers' prompt caches: its fixed part is the
// same byte for byte on every run and holds nothing of the run, and the run's material comes after
// it. Each prompt is built twice from two runs whose texts, counts, scores and scales all differ.
import { describe, expect, it } from 'vitest';
import { isLaidOutPrompt, promptText } from '../../../../../../src/kit/judge/prompt-layout.ts';
import type { LaidOutPrompt } from '../../../../../../src/kit/judge/prompt-layout.ts';
import { createAnswerRelevancyAnalyzePrompt, createAnswerRelevancyReasonPrompt } from '../../../../../../src/kit/scorers/llm/answer-relevancy/prompts.ts';
import { createBiasAnalyzePrompt, createBiasReasonPrompt } from '../../../../../../src/kit/scorers/llm/bias/prompts.ts';
import {
  createConversationResolutionAnalyzePrompt,
  createConversationResolutionReasonPrompt,
} from '../../../../../../src/kit/scorers/llm/conversation-resolution/prompts.ts';
import { createFaithfulnessAnalyzePrompt, createFaithfulnessReasonPrompt } from '../../../../../../src/kit/scorers/llm/faithfulness/prompts.ts';
import { createHallucinationAnalyzePrompt, createHallucinationReasonPrompt } from '../../../../../../src/kit/scorers/llm/hallucination/prompts.ts';
import { createKnowledgeRetentionAnalyzePrompt, createKnowledgeRetentionReasonPrompt } from '../../../../../../src/kit/scorers/llm/knowledge-retention/prompts.ts';
import { createTaskCompletionAnalyzePrompt, createTaskCompletionReasonPrompt } from '../../../../../../src/kit/scorers/llm/task-completion/prompts.ts';
import { createToolSelectionAnalyzePrompt, createToolSelectionReasonPrompt } from '../../../../../../src/kit/scorers/llm/tool-selection/prompts.ts';
import { createToxicityAnalyzePrompt, createToxicityReasonPrompt } from '../../../../../../src/kit/scorers/llm/toxicity/prompts.ts';
import { createUserFrustrationAnalyzePrompt, createUserFrustrationReasonPrompt } from '../../../../../../src/kit/scorers/llm/user-frustration/prompts.ts';
import { describeScore } from '../../../../../../src/kit/scorers/shared/prompt-text.ts';
import type { JudgedToolCalls } from '../../../../../../src/kit/scorers/shared/tool-calls-text.ts';

/** One run's material. Every text it hands out is unique to the run and remembered, to be looked for in the prompt. */
class RunMaterial {
  /** Texts the prompt must show in its material. */
  readonly shown: string[] = [];
  /** Every text of the run, shown or not: none may be in the fixed part. */
  readonly all: string[] = [];
  private next = 0;

  /** Tells the run's texts from the other run's. */
  readonly tag: string;
  /** How many entries each list has: differs between the two runs. */
  readonly count: number;
  /** Whether the run has its optional parts (a question, an answer, notes). */
  readonly full: boolean;
  private readonly scoreValue: number;
  private readonly scaleValue: number;

  constructor(run: { tag: string; count: number; full: boolean; score: number; scale: number }) {
    this.tag = run.tag;
    this.count = run.count;
    this.full = run.full;
    this.scoreValue = run.score;
    this.scaleValue = run.scale;
  }

  /** A text the prompt must show. */
  text(label: string): string {
    const text = this.hidden(label);
    this.shown.push(text);
    return text;
  }

  /** A text of the run that the prompt may leave out (a verdict that is filtered away). */
  hidden(label: string): string {
    this.next += 1;
    const text = `{${label} ${this.tag} ${this.next}}`;
    this.all.push(text);
    return text;
  }

  list(label: string): string[] {
    return Array.from({ length: this.count }, () => this.text(label));
  }

  /** The run's score and scale, as a reason prompt gets them. */
  scored(): { score: number; scale: number } {
    for (const text of [describeScore(this.scoreValue, this.scaleValue), `The score is ${this.scoreValue} because`]) {
      this.shown.push(text);
      this.all.push(text);
    }
    return { score: this.scoreValue, scale: this.scaleValue };
  }

  toolCalls(): JudgedToolCalls {
    const calls = this.list('tool').map((toolName, index) => ({
      call: index + 1,
      toolName,
      toolCallId: `call-${this.tag}-${index}`,
      arguments: JSON.stringify({ query: this.text('argument') }),
      outcome: 'result' as const,
      output: JSON.stringify(this.text('result')),
    }));
    return { calls, totalCalls: calls.length };
  }

  verdicts<K extends string>(key: K, verdict: string): ({ [key in K]: string } & { verdict: string; reason: string })[] {
    return this.list(key).map((text) => ({ [key]: text, verdict, reason: this.text('reason') }) as { [key in K]: string } & { verdict: string; reason: string });
  }
}

const claims = (run: RunMaterial) => ({ answer: run.text('answer'), context: run.list('context'), ...run.scored(), claims: run.verdicts('claim', 'supported') });

const prompts: Record<string, (run: RunMaterial) => LaidOutPrompt> = {
  'answer relevancy analyze': (run) => createAnswerRelevancyAnalyzePrompt({ question: run.text('question'), answer: run.text('answer') }),
  'answer relevancy reason': (run) =>
    createAnswerRelevancyReasonPrompt({ question: run.text('question'), answer: run.text('answer'), ...run.scored(), statements: run.verdicts('statement', 'unsure') }),
  'bias analyze': (run) => createBiasAnalyzePrompt({ answer: run.text('answer') }),
  'bias reason': (run) => createBiasReasonPrompt({ ...run.scored(), opinions: run.verdicts('opinion', 'biased') }),
  'conversation resolution analyze': (run) => createConversationResolutionAnalyzePrompt({ conversation: run.text('conversation') }),
  'conversation resolution reason': (run) => createConversationResolutionReasonPrompt({ ...run.scored(), requests: run.verdicts('request', 'resolved') }),
  'faithfulness analyze': (run) => createFaithfulnessAnalyzePrompt({ answer: run.text('answer'), context: run.list('context') }),
  'faithfulness reason': (run) => createFaithfulnessReasonPrompt(claims(run)),
  'hallucination analyze': (run) => createHallucinationAnalyzePrompt({ answer: run.text('answer'), context: run.list('context') }),
  'hallucination reason': (run) => createHallucinationReasonPrompt(claims(run)),
  'knowledge retention analyze': (run) => createKnowledgeRetentionAnalyzePrompt({ conversation: run.text('conversation') }),
  'knowledge retention reason': (run) =>
    createKnowledgeRetentionReasonPrompt({
      ...run.scored(),
      facts: [
        ...run.verdicts('fact', 'forgotten').map((entry, index) => ({ ...entry, turn: index + 2 })),
        { fact: run.hidden('unneeded fact'), turn: 1, verdict: 'not_needed', reason: run.hidden('reason') },
      ],
    }),
  'task completion analyze': (run) =>
    createTaskCompletionAnalyzePrompt({ question: run.text('question'), ...(run.full ? { answer: run.text('answer') } : {}), toolCalls: run.toolCalls() }),
  'task completion reason': (run) =>
    createTaskCompletionReasonPrompt({
      ...run.scored(),
      task: run.text('task'),
      verdict: run.full ? 'partially_completed' : 'not_completed',
      unmetRequirements: run.list('requirement'),
      evidence: run.text('evidence'),
    }),
  'tool selection analyze': (run) =>
    createToolSelectionAnalyzePrompt({
      question: run.text('question'),
      offeredTools: run.list('offered tool').map((name) => ({ name, description: run.text('description') })),
      totalOfferedTools: run.count + (run.full ? 0 : 4),
      toolCalls: run.toolCalls(),
    }),
  'tool selection reason': (run) =>
    createToolSelectionReasonPrompt({
      ...run.scored(),
      judged: run.list('tool').map((toolName, index) => ({ call: index + 1, toolName, verdict: 'unnecessary', reason: run.text('reason') })),
      unjudgedCalls: run.full ? [] : [run.count + 1],
      ...(run.full ? { missingTool: run.text('missing tool') } : {}),
    }),
  'toxicity analyze': (run) => createToxicityAnalyzePrompt({ ...(run.full ? { question: run.text('question') } : {}), answer: run.text('answer') }),
  'toxicity reason': (run) =>
    createToxicityReasonPrompt({
      ...run.scored(),
      statements: [...run.verdicts('statement', 'toxic'), { statement: run.hidden('calm statement'), verdict: 'not_toxic', reason: run.hidden('reason') }],
    }),
  'user frustration analyze': (run) => createUserFrustrationAnalyzePrompt({ conversation: run.text('conversation'), messages: run.list('message') }),
  'user frustration reason': (run) =>
    createUserFrustrationReasonPrompt({
      ...run.scored(),
      messages: [
        ...run.list('reason').map((reason, index) => ({ message: index + 1, verdict: 'frustrated', reason })),
        { message: run.count + 1, verdict: 'not_frustrated', reason: run.hidden('reason') },
      ],
    }),
};

describe('the built-in judge prompts, laid out for the prompt caches', () => {
  it('covers the analyze and the reason prompt of all ten judges', () => {
    expect(Object.keys(prompts)).toHaveLength(20);
  });

  it.each(Object.entries(prompts))('%s: the fixed part is the same on every run, holds nothing of the run, and comes first', (_name, create) => {
    const runs = [
      new RunMaterial({ tag: 'alpha', count: 2, full: true, score: 0.4321, scale: 7 }),
      new RunMaterial({ tag: 'omega', count: 3, full: false, score: 0.8765, scale: 3 }),
    ];
    const [first, second] = runs.map((run) => create(run)) as [LaidOutPrompt, LaidOutPrompt];
    expect(isLaidOutPrompt(first)).toBe(true);
    expect(second.fixed).toBe(first.fixed);
    expect(second.closing).toBe(first.closing);
    expect(first.fixed.length).toBeGreaterThan(200);
    expect(first.closing.length).toBeLessThan(100);

    for (const [index, run] of runs.entries()) {
      const prompt = [first, second][index]!;
      for (const text of run.all) {
        expect(prompt.fixed).not.toContain(text);
        expect(prompt.closing).not.toContain(text);
      }
      const whole = promptText(prompt);
      expect(whole.startsWith(`${prompt.fixed}\n\n`)).toBe(true);
      const afterFixed = whole.slice(prompt.fixed.length);
      for (const text of run.shown) {
        expect(prompt.material).toContain(text);
        expect(afterFixed).toContain(text);
      }
    }
  });
});
