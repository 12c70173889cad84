// What an AI SDK call got back, step by step, as the run's output: one assistant message in
// Mastra's shape, whose parts follow the steps in order — a `step-start` part (with the model)
// per step, then that step's reasoning, tool invocations (with their results, or the error a tool
// threw), sources, files and text. Scorers' utils read the answer as the last text part and the
// tool calls from the invocations, as with a Mastra agent's output.
import type { DbMessageInput } from '../../src/kit/contracts/messages.ts';

type PartInput = DbMessageInput['content']['parts'][number];
type InvocationPart = Extract<PartInput, { type: 'tool-invocation' }>;

/**
 * One step of a result, as generateText, streamText and the agent class report it (`StepResult`
 * from 'ai'). Only what the run contract carries is read; the content parts are read by their
 * `type`, so results of tools with any types fit.
 */
export type AiSdkStep = {
  readonly callId?: string;
  readonly stepNumber?: number;
  readonly model?: { readonly provider: string; readonly modelId: string };
  readonly content: ReadonlyArray<{ readonly type: string }>;
  readonly finishReason?: string;
  readonly response?: { readonly id?: string; readonly modelId?: string; readonly timestamp?: Date };
  readonly performance?: { readonly stepTimeMs?: number };
};

type Part = { readonly type: string } & Record<string, unknown>;

/** A thrown error's message, as the contract's `errorText`. */
export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  return JSON.stringify(error) ?? String(error);
}

function sourcePart(part: Part): PartInput | undefined {
  if (part.sourceType === 'url') {
    return { type: 'source', source: { sourceType: 'url', id: String(part.id), url: String(part.url), ...(typeof part.title === 'string' ? { title: part.title } : {}) } };
  }
  if (part.sourceType === 'document') {
    return {
      type: 'source-document',
      sourceId: String(part.id),
      mediaType: String(part.mediaType),
      title: String(part.title),
      ...(typeof part.filename === 'string' ? { filename: part.filename } : {}),
    };
  }
  return undefined;
}

function stepParts(step: AiSdkStep, index: number): PartInput[] {
  const stepNumber = step.stepNumber ?? index;
  const modelId = step.response?.modelId ?? step.model?.modelId;
  const parts: PartInput[] = [{ type: 'step-start', ...(modelId === undefined ? {} : { model: modelId }) }];
  const invocations = new Map<string, InvocationPart>();
  const invocation = (part: Part): InvocationPart => {
    const id = String(part.toolCallId);
    let found = invocations.get(id);
    if (found === undefined) {
      found = {
        type: 'tool-invocation',
        toolInvocation: { toolCallId: id, toolName: String(part.toolName), args: part.input, state: 'call', step: stepNumber },
        ...(part.providerExecuted === true ? { providerExecuted: true } : {}),
        ...(typeof part.title === 'string' ? { title: part.title } : {}),
      };
      invocations.set(id, found);
      parts.push(found);
    }
    return found;
  };
  for (const content of step.content) {
    const part = content as Part;
    switch (part.type) {
      case 'text':
        if (typeof part.text === 'string' && part.text !== '') parts.push({ type: 'text', text: part.text });
        break;
      case 'reasoning':
        if (typeof part.text === 'string') parts.push({ type: 'reasoning', reasoning: part.text, details: [{ type: 'text', text: part.text }] });
        break;
      case 'tool-call':
        invocation(part);
        break;
      case 'tool-result':
        // Preliminary results of streaming tools are followed by the final one.
        if (part.preliminary !== true) Object.assign(invocation(part).toolInvocation, { state: 'result', result: part.output });
        break;
      case 'tool-error':
        Object.assign(invocation(part).toolInvocation, { state: 'output-error', errorText: errorText(part.error) });
        break;
      case 'tool-output-denied':
        Object.assign(invocation(part).toolInvocation, { state: 'output-denied' });
        break;
      case 'tool-approval-request': {
        const call = part.toolCall as Part;
        Object.assign(invocation(call).toolInvocation, { state: 'approval-requested', approval: { id: String(part.approvalId) } });
        break;
      }
      case 'source': {
        const source = sourcePart(part);
        if (source !== undefined) parts.push(source);
        break;
      }
      case 'file': {
        const file = part.file as { base64?: string; mediaType?: string } | undefined;
        if (file?.base64 !== undefined) parts.push({ type: 'file', mimeType: file.mediaType ?? 'application/octet-stream', data: file.base64 });
        break;
      }
      default:
        // reasoning-file, custom and approval responses have no place in the contract's parts.
        break;
    }
  }
  return parts;
}

/** The run's output: one assistant message holding every step, or none when there were no steps. */
export function convertSteps(steps: readonly AiSdkStep[], options: { id: string; createdAt: string; finishReason?: string }): DbMessageInput[] {
  if (steps.length === 0) return [];
  const last = steps.at(-1)!;
  const modelId = last.response?.modelId ?? last.model?.modelId;
  const metadata: Record<string, unknown> = {};
  if (modelId !== undefined) metadata.modelId = modelId;
  if (last.model?.provider !== undefined) metadata.provider = last.model.provider;
  const finishReason = options.finishReason ?? last.finishReason;
  if (finishReason !== undefined) metadata.finishReason = finishReason;
  return [
    {
      id: options.id,
      role: 'assistant',
      createdAt: options.createdAt,
      content: { format: 2, parts: steps.flatMap(stepParts), metadata },
    },
  ];
}
