// Tool error recovery (code, no judge): what the agent did after each failed tool call. A failure
// counts 1 when a later call succeeded (the same tool: retried; another tool: alternative); when
// nothing later succeeded (gave up) it counts 0.5 if the final answer admits a failure and 0 if
// the answer reads as if nothing went wrong. The score is the mean over the failures.
import { createScorer } from '../../../scorer/create-scorer.ts';
import { notScorable } from '../../../scorer/not-scorable.ts';
import { getAnswerText } from '../../shared/run-text.ts';
import { isFailedToolCall, isSuccessfulToolResult, listToolCalls, NO_TOOL_CALLS_REASON } from '../../shared/tool-invocations.ts';
import type { ToolCallRecord } from '../../shared/tool-invocations.ts';
import { printable } from '../../shared/reason-text.ts';

export const toolErrorRecoveryScorerId = 'tool-error-recovery';

export type RecoveryOutcome = 'retried' | 'alternative' | 'gave_up';

export type ToolFailure = { toolName: string; toolCallId: string; outcome: RecoveryOutcome; recoveredBy?: string };

/**
 * English phrases by which an answer admits that something failed, matched whole-word and
 * case-insensitively; both apostrophes (' and ’) are accepted. Deliberately small: a phrase that
 * is missing costs a gave-up failure 0.5, one that is too broad hides a failure the answer kept quiet.
 */
export const failureAdmissionPatterns: readonly RegExp[] = [
  /\b(?:couldn['’]t|can['’]t|could not|can ?not)\b/i,
  /\bunable to\b/i,
  /\b(?:not|(?:was|were)n['’]t) able to\b/i,
  /\bfail(?:ed|s|ure|ing)?\b/i,
  /\berrors?\b/i,
  /\bnot available\b/i,
  /\bunavailable\b/i,
  /\bsorry\b/i,
  /\bapologi[sz]e\b/i,
  /\btry again\b/i,
  /\bwent wrong\b/i,
  /\btimed out\b/i,
];

const admittedGaveUpScore = 0.5;
// The reason names this many distinct entries per list, then says how many more there were.
const maxNamedInReason = 5;

/** Whether the answer says that something failed (`failureAdmissionPatterns`). */
export function admitsFailure(answer: string | undefined): boolean {
  return answer !== undefined && failureAdmissionPatterns.some((pattern) => pattern.test(answer));
}

/**
 * Each failed call's outcome, in one pass from the last call back (a run of thousands of failed
 * calls stays linear): a later success of the same tool wins over one of another tool — the agent
 * got what it asked for — and "another tool" is the first later success.
 */
function recoveriesOf(calls: readonly ToolCallRecord[]): ToolFailure[] {
  const succeedsLater = new Set<string>();
  let firstLaterSuccess: string | undefined;
  const failures: ToolFailure[] = [];
  for (let index = calls.length - 1; index >= 0; index -= 1) {
    const call = calls[index]!;
    if (isFailedToolCall(call)) {
      const base = { toolName: call.toolName, toolCallId: call.toolCallId };
      if (succeedsLater.has(call.toolName)) failures.push({ ...base, outcome: 'retried', recoveredBy: call.toolName });
      else if (firstLaterSuccess !== undefined) failures.push({ ...base, outcome: 'alternative', recoveredBy: firstLaterSuccess });
      else failures.push({ ...base, outcome: 'gave_up' });
    } else if (isSuccessfulToolResult(call)) {
      succeedsLater.add(call.toolName);
      firstLaterSuccess = call.toolName;
    }
  }
  return failures.reverse();
}

/** Distinct entries in first-seen order, a repeated one marked "×n", at most `maxNamedInReason`. */
function listDistinct(entries: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const entry of entries) counts.set(entry, (counts.get(entry) ?? 0) + 1);
  const named = [...counts].slice(0, maxNamedInReason).map(([entry, count]) => (count === 1 ? entry : `${entry} ×${count}`));
  const more = counts.size - named.length;
  return more > 0 ? `${named.join(', ')} and ${more} more` : named.join(', ');
}

function describeRecovered(recovered: readonly ToolFailure[], total: number): string {
  const how = listDistinct(
    recovered.map((failure) =>
      failure.outcome === 'retried'
        ? `${printable(failure.toolName)} retried`
        : `${printable(failure.toolName)} replaced by ${printable(failure.recoveredBy ?? '')}`,
    ),
  );
  if (total === 1) return `The one tool failure was recovered (${how})`;
  if (recovered.length === total) return `All ${total} tool failures were recovered (${how})`;
  return `${recovered.length} of ${total} tool failures ${recovered.length === 1 ? 'was' : 'were'} recovered (${how})`;
}

function describeGaveUp(gaveUp: readonly ToolFailure[], answerAdmitsFailure: boolean): string {
  const tools = listDistinct(gaveUp.map((failure) => printable(failure.toolName)));
  return `${tools} failed and the answer ${answerAdmitsFailure ? 'says so' : 'does not say so'}`;
}

export function createToolErrorRecoveryScorer() {
  return createScorer({
    id: toolErrorRecoveryScorerId,
    name: 'Tool Error Recovery',
    description: 'How the agent handled failed tool calls: recovered by a later successful call, or admitted in the answer.',
    type: 'agent',
  })
    .preprocess(({ run }) => {
      const calls = listToolCalls(run.output);
      if (calls.length === 0) return notScorable(NO_TOOL_CALLS_REASON);
      const failures = recoveriesOf(calls);
      if (failures.length === 0) return notScorable('No tool call failed; nothing to recover from.');
      // Only a failure left unrecovered needs owning up to; otherwise the answer is not read.
      const gaveUp = failures.some((failure) => failure.outcome === 'gave_up');
      const answerAdmitsFailure = gaveUp ? admitsFailure(getAnswerText(run.output)) : undefined;
      return { failures, answerAdmitsFailure };
    })
    .generateScore(({ results }) => {
      const { failures, answerAdmitsFailure } = results.preprocessStepResult;
      const gaveUpScore = answerAdmitsFailure === true ? admittedGaveUpScore : 0;
      const total = failures.reduce(
        (sum, failure) => sum + (failure.outcome === 'gave_up' ? gaveUpScore : 1),
        0,
      );
      return total / failures.length;
    })
    .generateReason(({ results }) => {
      const { failures, answerAdmitsFailure } = results.preprocessStepResult;
      const recovered = failures.filter((failure) => failure.outcome !== 'gave_up');
      const gaveUp = failures.filter((failure) => failure.outcome === 'gave_up');
      if (gaveUp.length === 0) return `${describeRecovered(recovered, failures.length)}.`;
      const unrecovered = describeGaveUp(gaveUp, answerAdmitsFailure === true);
      if (recovered.length > 0) return `${describeRecovered(recovered, failures.length)}; ${unrecovered}.`;
      const none = failures.length === 1 ? 'The one tool failure was not recovered' : `None of the ${failures.length} tool failures was recovered`;
      return `${none}: ${unrecovered}.`;
    });
}
