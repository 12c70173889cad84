// The labelled set is data the report stands on: every case must be a valid run event the
// scorers can read, labelled for at least one scorer, with balanced labels and no duplicates.
import { describe, expect, it } from 'vitest';
import { labelledCases } from '../../../../eval/judge-quality/labelled-cases.ts';
import { labelledRunEvent } from '../../../../eval/judge-quality/labelled-runs.ts';
import { evalScorerIds, labelSets } from '../../../../eval/judge-quality/scorer-labels.ts';
import { agentRunEventSchema } from '../../../../src/kit/contracts/agent-run-event.ts';
import { toolResultContext } from '../../../../src/kit/scorers/shared/judge-context.ts';
import { getAnswerText, getQuestionText } from '../../../../src/kit/scorers/shared/run-text.ts';

describe('the labelled set', () => {
  it('holds at least 100 runs with unique ids, answers and question-answer pairs', () => {
    expect(labelledCases.length).toBeGreaterThanOrEqual(100);
    const unique = (values: string[]) => new Set(values).size;
    expect(unique(labelledCases.map((labelled) => labelled.id))).toBe(labelledCases.length);
    expect(unique(labelledCases.map((labelled) => labelled.answer.toLowerCase()))).toBe(labelledCases.length);
    expect(unique(labelledCases.map((labelled) => `${labelled.question}\n${labelled.answer}`))).toBe(labelledCases.length);
  });

  it('makes every case a valid AgentRunEvent whose question, answer and tool results the scorers read back', () => {
    for (const labelled of labelledCases) {
      const parsed = agentRunEventSchema.safeParse(labelledRunEvent(labelled));
      expect(parsed.success, `${labelled.id}: ${parsed.error?.message}`).toBe(true);
      const event = parsed.data!;
      expect(getQuestionText(event.input)).toBe(labelled.question);
      expect(getAnswerText(event.output)).toBe(labelled.answer);
      expect(toolResultContext(event.output)).toHaveLength(labelled.tools?.length ?? 0);
    }
  });

  it('labels every case for at least one scorer, with labels from that scorer\'s set', () => {
    for (const labelled of labelledCases) {
      const entries = Object.entries(labelled.labels);
      expect(entries.length, labelled.id).toBeGreaterThan(0);
      for (const [scorerId, label] of entries) {
        expect(labelSets[scorerId as keyof typeof labelSets] as readonly string[], labelled.id).toContain(label);
      }
    }
  });

  it('balances the labels of every scorer, with at least 20 cases each', () => {
    for (const scorerId of evalScorerIds) {
      const counts = labelSets[scorerId].map((label) => labelledCases.filter((labelled) => labelled.labels[scorerId] === label).length);
      expect(counts.reduce((sum, count) => sum + count, 0), scorerId).toBeGreaterThanOrEqual(20);
      expect(new Set(counts).size, `${scorerId}: ${counts.join(', ')}`).toBe(1);
    }
  });

  it('gives every case labelled for faithfulness or hallucination the tool results it is checked against, and labels it for both alike', () => {
    for (const labelled of labelledCases) {
      if (labelled.labels.faithfulness === undefined && labelled.labels.hallucination === undefined) continue;
      expect(labelled.tools?.length, labelled.id).toBeGreaterThan(0);
      expect(labelled.labels.hallucination, labelled.id).toBe(labelled.labels.faithfulness);
    }
  });
});
