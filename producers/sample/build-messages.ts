// Builds the Mastra-shaped messages of one sample run (wire form: ISO dates): the remembered
// conversation, the user's turn, and the assistant's response with tool calls that succeed,
// report an error, throw, go to the wrong tool — or fail the way trajectories fail: a call to a
// tool the agent was not offered, the same call made again and again, arguments the tool's schema
// refuses.
import type { DbMessageInput } from '../../src/kit/contracts/messages.ts';
import type { Random } from './prng.ts';
import type { Scenario, ToolStep } from './scenario-types.ts';

export type ToolOutcome = 'ok' | 'reported_error' | 'thrown_error' | 'wrong_tool' | 'no_tools' | 'unoffered_tool' | 'repeated_call' | 'bad_arguments';

/** How many times a looping agent makes the same call. */
const LOOP_LENGTH = 4;
export type AnswerQuality = 'complete' | 'mostly' | 'partial' | 'offTopic' | 'empty';

type Part = DbMessageInput['content']['parts'][number];
type Invocation = NonNullable<DbMessageInput['content']['toolInvocations']>[number];

export function textMessage(random: Random, role: 'user' | 'assistant', text: string, at: Date, thread: { threadId: string; resourceId: string }): DbMessageInput {
  return {
    id: `msg-${random.hex(12)}`,
    role,
    createdAt: at.toISOString(),
    ...thread,
    content: { format: 2, parts: [{ type: 'text', text }], content: text },
  };
}

function invocation(random: Random, step: ToolStep, index: number, failure: 'reported' | 'thrown' | undefined): Invocation {
  const base = { toolCallId: `call_${random.hex(16)}`, toolName: step.toolName, args: step.args, step: index };
  if (failure === 'thrown') return { ...base, state: 'output-error', errorText: step.failure };
  if (failure === 'reported') return { ...base, state: 'result', result: { error: step.failure }, isError: true };
  return { ...base, state: 'result', result: step.result };
}

/** A name the model made up for a tool it was offered (snake_case for camelCase): the commonest unoffered call. */
function madeUpName(toolName: string): string {
  return toolName.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/** The call's arguments without the first one, as a model that forgot it sends them. */
function withoutFirstArgument(args: Record<string, unknown>): Record<string, unknown> {
  const [, ...rest] = Object.entries(args);
  return Object.fromEntries(rest);
}

/** The tool calls the agent made, and whether one of them failed. */
export function toolCalls(random: Random, scenario: Scenario, outcome: ToolOutcome): { invocations: Invocation[]; failed: boolean } {
  if (outcome === 'no_tools') return { invocations: [], failed: false };
  const steps = [...scenario.tools];
  const target = random.int(0, steps.length - 1);
  if (outcome === 'wrong_tool') steps[target] = scenario.wrongTool;
  if (outcome === 'unoffered_tool') {
    // The framework refuses a call to a tool it does not have, as the AI SDK's NoSuchToolError does.
    const name = madeUpName(steps[target]!.toolName);
    steps[target] = { ...steps[target]!, toolName: name, failure: `Model tried to call unavailable tool '${name}'.` };
  }
  if (outcome === 'bad_arguments') {
    const args = withoutFirstArgument(steps[target]!.args);
    steps[target] = { ...steps[target]!, args, failure: `Invalid input for tool ${steps[target]!.toolName}: missing required argument '${Object.keys(steps[target]!.args)[0]}'.` };
  }
  const failure = outcome === 'reported_error' ? 'reported' : outcome === 'thrown_error' || outcome === 'unoffered_tool' || outcome === 'bad_arguments' ? 'thrown' : undefined;
  const invocations = steps.map((step, index) => invocation(random, step, index, index === target ? failure : undefined));
  if (outcome === 'repeated_call') {
    // A loop: the agent makes the same successful call again, each in a step of its own.
    const repeated = invocations[target]!;
    const again = Array.from({ length: LOOP_LENGTH - 1 }, (_, turn) => ({ ...repeated, toolCallId: `call_${random.hex(16)}`, step: steps.length + turn }));
    invocations.splice(target + 1, 0, ...again);
  }
  return { invocations, failed: failure !== undefined };
}

export function answerText(scenario: Scenario, quality: AnswerQuality, toolFailed: boolean): string {
  if (quality === 'empty') return toolFailed ? 'Sorry, something went wrong on my side. Please try again later.' : "I'm not able to help with that.";
  const answer = quality === 'mostly' ? withoutLastSentence(scenario.answers.complete) : scenario.answers[quality];
  return toolFailed ? `${answer} (One of my tools failed, so parts of this answer may be out of date.)` : answer;
}

/** The complete answer missing its last detail: scores between partial and complete. */
function withoutLastSentence(text: string): string {
  const sentences = text.match(/[^.!?]+[.!?]+(\s|$)/g);
  return sentences === null || sentences.length < 2 ? text : sentences.slice(0, -1).join('').trim();
}

export type ResponseOptions = {
  scenario: Scenario;
  invocations: Invocation[];
  text: string;
  withReasoning: boolean;
  /** Extra parts (sources, data-*) placed before the final text. */
  extraParts: Part[];
  /** Emit the tool calls and the final text as two assistant messages, as Mastra sometimes does. */
  splitMessages: boolean;
  model: { modelId: string; provider: string };
  startedAt: Date;
  finishedAt: Date;
  thread: { threadId: string; resourceId: string };
};

export function responseMessages(random: Random, options: ResponseOptions): DbMessageInput[] {
  const { invocations, model, thread } = options;
  const toolParts: Part[] = invocations.map((call) => ({ type: 'tool-invocation', toolInvocation: call }));
  const reasoning: Part[] = options.withReasoning
    ? [{ type: 'reasoning', reasoning: options.scenario.reasoning, details: [{ type: 'text', text: options.scenario.reasoning }] }]
    : [];
  const answerParts: Part[] = [...options.extraParts, ...(options.text === '' ? [] : [{ type: 'text' as const, text: options.text }])];
  const metadata = { modelId: model.modelId, provider: model.provider };
  const message = (parts: Part[], calls: Invocation[], text: string | undefined, at: Date): DbMessageInput => ({
    id: `msg-${random.hex(12)}`,
    role: 'assistant',
    createdAt: at.toISOString(),
    ...thread,
    content: {
      format: 2,
      parts,
      ...(text === undefined ? {} : { content: text }),
      ...(calls.length === 0 ? {} : { toolInvocations: calls }),
      metadata,
    },
  });
  const midpoint = new Date((options.startedAt.getTime() + options.finishedAt.getTime()) / 2);
  if (options.splitMessages && toolParts.length > 0) {
    return [
      message([{ type: 'step-start' }, ...reasoning, ...toolParts], invocations, undefined, midpoint),
      message([{ type: 'step-start' }, ...answerParts], [], options.text, options.finishedAt),
    ];
  }
  const steps: Part[] = toolParts.length > 0 ? [{ type: 'step-start' }, ...reasoning, ...toolParts, { type: 'step-start' }] : [{ type: 'step-start' }, ...reasoning];
  return [message([...steps, ...answerParts], invocations, options.text, options.finishedAt)];
}
