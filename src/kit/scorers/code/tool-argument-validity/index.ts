// Tool argument validity (code, no judge): the share of the agent's tool calls whose arguments the
// offered tool's `parameters` JSON Schema accepts, 1 − invalid / checked. Only calls that can be
// checked count: a call to a tool the run did not offer, to a tool offered without `parameters`,
// or against a schema that cannot be used is listed as unchecked instead of being guessed at.
//
// Schemas arrive with every run: each distinct one is compiled once per scorer (compiled-schemas.ts,
// which also says how ajv is kept from trusting them).
import type { ErrorObject } from 'ajv/dist/ajv.js';
import { createScorer } from '../../../scorer/create-scorer.ts';
import { isNotScorable, notScorable } from '../../../scorer/not-scorable.ts';
import { wholeNumberOption } from '../../shared/invalid-options.ts';
import { offeredToolsAndCalls } from '../../shared/offered-tools.ts';
import { toolArgumentsOf } from '../../shared/tool-invocations.ts';
import type { ToolCallRecord } from '../../shared/tool-invocations.ts';
import { nameSome, printable, printableWithin } from '../../shared/reason-text.ts';
import { createSchemaCache } from './compiled-schemas.ts';

export const toolArgumentValidityScorerId = 'tool-argument-validity';

export type ToolArgumentValidityOptions = {
  /** Distinct parameter schemas kept compiled (default 1,000); past it the least recently used is dropped. */
  maxCachedSchemas?: number;
  /** Problems recorded for each invalid call (default 3). */
  maxProblemsPerCall?: number;
};

export type InvalidToolCall = { toolName: string; toolCallId: string; problems: string[] };

/** Why a call was not counted: the run gives no schema to check it against, or the schema cannot be used. */
export type UncheckedWhy = 'tool-not-offered' | 'no-parameters' | 'schema-unusable';

export type UncheckedToolCall = { toolName: string; toolCallId: string; why: UncheckedWhy; detail?: string };

const defaultMaxCachedSchemas = 1_000;
const defaultMaxProblemsPerCall = 3;
const maxProblemLength = 160;
const maxCallsNamedInReason = 5;
/** Arguments as the tool would get them: a JSON string parsed, none at all as `{}`. */
function argumentsOf(call: ToolCallRecord): { args: unknown } | { problem: string } {
  const decoded = toolArgumentsOf(call.invocation.args);
  return 'args' in decoded ? decoded : { problem: 'arguments are a string that is not JSON' };
}

function problemOf(error: ErrorObject): string {
  const extra = typeof error.params.additionalProperty === 'string' ? ` (${error.params.additionalProperty})` : '';
  const text = `${error.instancePath === '' ? '' : `${error.instancePath} `}${error.message ?? 'is refused'}${extra}`;
  return printableWithin(text, maxProblemLength);
}


const uncheckedLabels: Record<UncheckedWhy, string> = {
  'tool-not-offered': 'not offered',
  'no-parameters': 'offered without parameters',
  'schema-unusable': 'schema unusable',
};


function describeUnchecked(calls: readonly UncheckedToolCall[]): string {
  return nameSome(calls.map((call) => `${printable(call.toolName)} (${uncheckedLabels[call.why]})`), maxCallsNamedInReason);
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

export function createToolArgumentValidityScorer(options: ToolArgumentValidityOptions = {}) {
  const maxCachedSchemas = wholeNumberOption(toolArgumentValidityScorerId, 'maxCachedSchemas', options.maxCachedSchemas, defaultMaxCachedSchemas);
  const maxProblemsPerCall = wholeNumberOption(toolArgumentValidityScorerId, 'maxProblemsPerCall', options.maxProblemsPerCall, defaultMaxProblemsPerCall);
  const compiledFor = createSchemaCache(maxCachedSchemas);

  return createScorer({
    id: toolArgumentValidityScorerId,
    name: 'Tool Argument Validity',
    description: "The share of the agent's tool calls whose arguments the tool's parameter schema accepts.",
    type: 'agent',
  })
    .preprocess(({ run }) => {
      const start = offeredToolsAndCalls(run);
      if (isNotScorable(start)) return start;
      const { offered, calls } = start;

      // A name offered twice is checked against its first definition.
      const definitions = new Map<string, Record<string, unknown> | undefined>();
      for (const tool of offered) if (!definitions.has(tool.name)) definitions.set(tool.name, tool.parameters);

      const invalidCalls: InvalidToolCall[] = [];
      const uncheckedCalls: UncheckedToolCall[] = [];
      for (const call of calls) {
        const base = { toolName: call.toolName, toolCallId: call.toolCallId };
        if (!definitions.has(call.toolName)) {
          uncheckedCalls.push({ ...base, why: 'tool-not-offered' });
          continue;
        }
        const parameters = definitions.get(call.toolName);
        if (parameters === undefined) {
          uncheckedCalls.push({ ...base, why: 'no-parameters' });
          continue;
        }
        const compiled = compiledFor(parameters);
        if ('unusable' in compiled) {
          uncheckedCalls.push({ ...base, why: 'schema-unusable', detail: printableWithin(compiled.unusable, maxProblemLength) });
          continue;
        }
        const parsed = argumentsOf(call);
        if ('problem' in parsed) {
          invalidCalls.push({ ...base, problems: [parsed.problem] });
          continue;
        }
        let valid: boolean;
        try {
          valid = compiled.validate(parsed.args) as boolean;
        } catch (error) {
          // A recursive schema can recurse past the stack on deeply nested arguments.
          const detail = `validation failed: ${error instanceof Error ? error.message : String(error)}`;
          uncheckedCalls.push({ ...base, why: 'schema-unusable', detail: printableWithin(detail, maxProblemLength) });
          continue;
        }
        if (!valid) {
          const problems = (compiled.validate.errors ?? []).slice(0, maxProblemsPerCall).map(problemOf);
          invalidCalls.push({ ...base, problems: problems.length > 0 ? problems : ['refused by the schema'] });
        }
      }

      const checkedCalls = calls.length - uncheckedCalls.length;
      if (checkedCalls === 0) {
        return notScorable(`No tool call could be checked against a parameter schema: ${describeUnchecked(uncheckedCalls)}.`);
      }
      return { totalCalls: calls.length, checkedCalls, invalidCalls, uncheckedCalls };
    })
    .generateScore(({ results }) => {
      const { checkedCalls, invalidCalls } = results.preprocessStepResult;
      return 1 - invalidCalls.length / checkedCalls;
    })
    .generateReason(({ results }) => {
      const { checkedCalls, invalidCalls, uncheckedCalls } = results.preprocessStepResult;
      let verdict: string;
      if (invalidCalls.length === 0) {
        verdict = checkedCalls === 1 ? 'The one tool call had valid arguments.' : `All ${checkedCalls} tool calls had valid arguments.`;
      } else {
        const named = nameSome(
          invalidCalls.map((call) => `${printable(call.toolName)} (${call.problems.join('; ')})`),
          maxCallsNamedInReason,
        );
        verdict = `${invalidCalls.length} of ${plural(checkedCalls, 'tool call')} had arguments its schema refuses: ${named}.`;
      }
      if (uncheckedCalls.length === 0) return verdict;
      return `${verdict} ${plural(uncheckedCalls.length, 'more call')} could not be checked: ${describeUnchecked(uncheckedCalls)}.`;
    });
}
