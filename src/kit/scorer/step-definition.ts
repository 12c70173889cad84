// Tells function steps from prompt objects (Mastra's rule, isPromptObject) and validates them when
// they are chained: a definition that can only fail at run time is a TypeError at chain time. A
// prompt object's output is compiled once here, so runs never rebuild schemas.
import type { JudgePrompt } from '../judge/prompt-layout.ts';
import { asFlexibleSchema, objectAnswer, scoreAnswer, textAnswer } from '../judge/answer-format.ts';
import type { JudgeAnswerFormat } from '../judge/answer-format.ts';
import { SCORER_STEPS } from '../contracts/scorer-steps.ts';
import type { StepName } from '../contracts/scorer-steps.ts';
import type { StepJudgeConfig } from '../judge/types.ts';
import type { StepDefinition, StepInfo } from './types.ts';

type CreatePrompt = (context: never) => JudgePrompt | Promise<JudgePrompt>;

export type FunctionStepEntry = {
  kind: 'function';
  name: StepName;
  description: string | undefined;
  execute: (context: never) => unknown;
};

export type PromptStepEntry = {
  kind: 'prompt';
  name: StepName;
  description: string;
  createPrompt: CreatePrompt;
  judge: StepJudgeConfig | undefined;
  format: JudgeAnswerFormat;
  calculateScore: ((context: never) => number | Promise<number>) | undefined;
};

export type StepEntry = FunctionStepEntry | PromptStepEntry;

/** Mastra's rule: an object with description and createPrompt (with or without an outputSchema key). */
export function isPromptObject(definition: unknown): boolean {
  if (typeof definition !== 'object' || definition === null) return false;
  const candidate = definition as Record<string, unknown>;
  if (!candidate.description || !candidate.createPrompt) return false;
  return !('outputSchema' in candidate) || Boolean(candidate.outputSchema);
}

export function compileStep(scorerId: string, name: StepName, definition: StepDefinition | unknown): StepEntry {
  if (typeof definition === 'function') {
    const description = (definition as { description?: unknown }).description;
    return {
      kind: 'function',
      name,
      description: typeof description === 'string' ? description : undefined,
      execute: definition as FunctionStepEntry['execute'],
    };
  }
  if (!isPromptObject(definition)) {
    throw new TypeError(
      `Scorer '${scorerId}': .${name}() needs a function or a prompt object ` +
        `{ description, createPrompt${needsSchema(name) ? ', outputSchema' : ''}, judge? }; got ${describe(definition)}.`,
    );
  }
  const prompt = definition as Record<string, unknown>;
  if (typeof prompt.createPrompt !== 'function') {
    throw new TypeError(`Scorer '${scorerId}': the ${name} prompt object's createPrompt must be a function.`);
  }
  if (prompt.judge !== undefined && (typeof prompt.judge !== 'object' || prompt.judge === null)) {
    throw new TypeError(`Scorer '${scorerId}': the ${name} prompt object's judge must be an object.`);
  }
  const calculateScore = name === 'generateScore' ? prompt.calculateScore : undefined;
  if (calculateScore !== undefined && typeof calculateScore !== 'function') {
    throw new TypeError(`Scorer '${scorerId}': the generateScore prompt object's calculateScore must be a function.`);
  }
  return {
    kind: 'prompt',
    name,
    description: String(prompt.description),
    createPrompt: prompt.createPrompt as CreatePrompt,
    judge: prompt.judge as StepJudgeConfig | undefined,
    format: answerFormat(scorerId, name, prompt.outputSchema),
    calculateScore: calculateScore as PromptStepEntry['calculateScore'],
  };
}

export function stepInfo(entry: StepEntry): StepInfo {
  return entry.description === undefined
    ? { name: entry.name, type: entry.kind }
    : { name: entry.name, type: entry.kind, description: entry.description };
}

/** Canonical order, each step at most once: Scorestream does not run out-of-order chains. */
export function assertChainOrder(scorerId: string, existing: readonly StepEntry[], next: StepName): void {
  const last = existing.at(-1);
  if (last === undefined) return;
  if (SCORER_STEPS.indexOf(next) > SCORER_STEPS.indexOf(last.name)) return;
  const problem = last.name === next ? `.${next}() is already set` : `.${next}() cannot come after .${last.name}()`;
  throw new TypeError(
    `Scorer '${scorerId}': ${problem}. Steps are chained in the order preprocess → analyze → generateScore → ` +
      'generateReason, each at most once.',
  );
}

function needsSchema(name: StepName): boolean {
  return name === 'preprocess' || name === 'analyze';
}

function answerFormat(scorerId: string, name: StepName, outputSchema: unknown): JudgeAnswerFormat {
  if (name === 'generateScore') return scoreAnswer;
  if (name === 'generateReason') return textAnswer;
  const schema = asFlexibleSchema(outputSchema);
  if (schema === undefined) {
    throw new TypeError(
      `Scorer '${scorerId}': the ${name} prompt object needs an outputSchema (a zod schema, a Standard Schema, ` +
        `jsonSchema(...) or a JSON Schema object); got ${describe(outputSchema)}.`,
    );
  }
  return objectAnswer(schema);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') {
    const keys = Object.keys(value);
    return keys.length === 0 ? 'an empty object' : `an object with keys ${keys.join(', ')}`;
  }
  return typeof value;
}
