import { describe, expect, it } from 'vitest';
import {
  getAnswerText,
  getInputText,
  getQuestionText,
  getReferenceText,
  getResponseText,
  partAbsent,
} from '../../../../../../src/kit/scorers/shared/run-text.ts';
import { isNotScorable } from '../../../../../../src/kit/scorer/not-scorable.ts';
import { createAgentTestRun } from '../../../../../../src/kit/testing/agent-test-run.ts';
import { assistantMessage, toolCall, userMessage } from '../agent-runs.ts';

const output = [
  assistantMessage('Let me check.', [], 'a1'),
  assistantMessage('', [toolCall('search')], 'a2'),
  assistantMessage('Paris.', [], 'a3'),
  assistantMessage('', [toolCall('log')], 'a4'),
];

describe('run texts', () => {
  it('takes the last assistant text as the answer and every assistant text as the response', () => {
    expect(getAnswerText(output)).toBe('Paris.');
    expect(getResponseText(output)).toBe('Let me check.\nParis.');
  });

  it('takes the first user message as the question and every input message as the input', () => {
    const { input } = createAgentTestRun({ inputMessages: [userMessage('One?', 'u1'), userMessage('Two?', 'u2')], output: [] });
    expect(getQuestionText(input)).toBe('One?');
    expect(getInputText(input)).toBe('One?\nTwo?');
  });

  it('accepts plain strings and treats whitespace-only text as no text', () => {
    expect(getQuestionText('Hi?')).toBe('Hi?');
    expect(getInputText('Hi?')).toBe('Hi?');
    expect(getAnswerText('Hello')).toBe('Hello');
    expect(getResponseText('Hello')).toBe('Hello');
    expect(getAnswerText('  \n')).toBeUndefined();
    expect(getResponseText([assistantMessage(' ')])).toBeUndefined();
    expect(getQuestionText(undefined)).toBeUndefined();
    expect(getInputText({ inputMessages: [] })).toBeUndefined();
  });
});

describe('getReferenceText', () => {
  it('prefers a textual ground truth over the question', () => {
    expect(getReferenceText({ groundTruth: 'Paris', input: 'Capital?' })).toEqual({ text: 'Paris', source: 'groundTruth' });
    expect(getReferenceText({ groundTruth: { text: 'Paris' }, input: 'Capital?' })).toEqual({ text: 'Paris', source: 'groundTruth' });
  });

  it('falls back to the question when the ground truth holds no text', () => {
    expect(getReferenceText({ groundTruth: { score: 1 }, input: 'Capital?' })).toEqual({ text: 'Capital?', source: 'input' });
    expect(getReferenceText({ groundTruth: ' ', input: 'Capital?' })).toEqual({ text: 'Capital?', source: 'input' });
  });

  it('gives nothing when neither exists', () => {
    expect(getReferenceText({})).toBeUndefined();
  });

  it('says why a part is absent when the run carries its producer\'s account (`missing`), and only for that part', () => {
    const run = { missing: [{ part: 'answer', reason: "no final answer in the spans of the run ('chat' ×2)" }] };
    const answer = partAbsent(run, 'answer', 'The agent gave no text answer.');
    expect(isNotScorable(answer) && answer.reason).toBe("The agent gave no text answer: no final answer in the spans of the run ('chat' ×2).");
    const question = partAbsent(run, 'question', 'The run input has no text.');
    expect(isNotScorable(question) && question.reason).toBe('The run input has no text.');
    expect(partAbsent({}, 'answer', 'The agent gave no text answer.').reason).toBe('The agent gave no text answer.');
  });
});
