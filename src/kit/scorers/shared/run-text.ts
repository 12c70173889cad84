// The texts the built-in scorers compare, read from an agent run (or a plain string run) with
// the scorer utils. Whitespace-only text counts as no text: there is nothing to score in it.
import { extractAgentResponseMessages, getAssistantMessageFromRunOutput } from '../../utils/run-output.ts';
import { extractInputMessages, getUserMessageFromRunInput } from '../../utils/run-input.ts';
import { notScorable } from '../../scorer/not-scorable.ts';
import type { NotScorable } from '../../scorer/not-scorable.ts';
import type { MissingPart } from '../../contracts/agent-run-event.ts';

/**
 * notScorable(reason) for a run without `part`, with the producer's own account appended when the
 * run carries one (its `missing`: an OTLP run whose spans held no user message or no answer says
 * which spans were seen, docs/otlp.md).
 */
export function partAbsent(run: unknown, part: MissingPart['part'], reason: string): NotScorable {
  const missing = typeof run === 'object' && run !== null ? (run as { missing?: unknown }).missing : undefined;
  const account = Array.isArray(missing) ? (missing as MissingPart[]).find((entry) => entry?.part === part)?.reason : undefined;
  return notScorable(account === undefined ? reason : `${reason.replace(/\.$/, '')}: ${account}.`);
}

function presentText(text: string | undefined): string | undefined {
  return text !== undefined && text.trim() !== '' ? text : undefined;
}

function joinPresent(texts: readonly string[]): string | undefined {
  return presentText(texts.filter((text) => text.trim() !== '').join('\n'));
}

/** The user's question: the first user message of the turn (or a string input). */
export function getQuestionText(input: unknown): string | undefined {
  return presentText(getUserMessageFromRunInput(input));
}

/** Everything the turn sent: the text of every input message, else the user's message. */
export function getInputText(input: unknown): string | undefined {
  return joinPresent(extractInputMessages(input)) ?? getQuestionText(input);
}

/** The agent's final answer: the last assistant message that has text. */
export function getAnswerText(output: unknown): string | undefined {
  return presentText(getAssistantMessageFromRunOutput(output));
}

/** Everything the agent said in the turn: the text of every assistant message, else the answer. */
export function getResponseText(output: unknown): string | undefined {
  return joinPresent(extractAgentResponseMessages(output)) ?? getAnswerText(output);
}

export type ReferenceText = { text: string; source: 'groundTruth' | 'input' };

/**
 * What an answer is compared with: the run's `groundTruth` when it holds text (a string, or a
 * message-like object), else the user's question.
 */
export function getReferenceText(run: { groundTruth?: unknown; input?: unknown }): ReferenceText | undefined {
  const groundTruth = run.groundTruth === undefined ? undefined : getAnswerText(run.groundTruth);
  if (groundTruth !== undefined) return { text: groundTruth, source: 'groundTruth' };
  const question = getQuestionText(run.input);
  return question === undefined ? undefined : { text: question, source: 'input' };
}

/**
 * The answer and what it is compared with, or the notScorable that says which is missing: the
 * preprocess of the comparison scorers (textual difference, content similarity).
 */
export function getAnswerAndReference(run: { output?: unknown; groundTruth?: unknown; input?: unknown; missing?: unknown }): { answer: string; reference: ReferenceText } | NotScorable {
  const answer = getAnswerText(run.output);
  if (answer === undefined) return partAbsent(run, 'answer', 'The agent gave no text answer.');
  const reference = getReferenceText(run);
  if (reference === undefined) return partAbsent(run, 'question', 'Nothing to compare with: the run has no groundTruth and no user message.');
  return { answer, reference };
}
