// The tools an AI SDK call offered (its `tools` option) as the run contract's tool definitions:
// the name it was registered under, its description, and its input schema as JSON Schema — what
// the trajectory scorers check calls against (docs/scorers.md). Zod, Valibot, ArkType and
// `jsonSchema()` schemas all go through the SDK's own `asSchema`, so the schema is the one the
// model was sent.
import { asSchema } from 'ai';
import type { FlexibleSchema } from 'ai';
import type { ToolDefinition } from '../../src/kit/contracts/agent-run-event.ts';

/**
 * What the adapter reads of each tool of a `ToolSet` (structural, so any tool type fits). A
 * description given as a function of the call's context is left out: the context is not here.
 */
export type AiSdkTools = Readonly<Record<string, { readonly description?: unknown; readonly inputSchema?: unknown }>>;

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/** The tool's input schema as JSON Schema; undefined for a provider tool without one, or one that resolves only asynchronously. */
function parametersOf(inputSchema: unknown): Record<string, unknown> | undefined {
  if (inputSchema === undefined || inputSchema === null) return undefined;
  try {
    const schema = asSchema(inputSchema as FlexibleSchema).jsonSchema;
    // `jsonSchema(() => promise)` resolves later; the run event is built synchronously, so it is left out.
    if (isPromiseLike(schema) || typeof schema !== 'object' || schema === null) return undefined;
    return schema as Record<string, unknown>;
  } catch {
    // A schema the SDK cannot convert would have failed the call itself; the run keeps the name.
    return undefined;
  }
}

export function toolDefinitionsOf(tools: AiSdkTools): ToolDefinition[] {
  return Object.entries(tools).map(([name, tool]) => {
    const parameters = parametersOf(tool.inputSchema);
    const description = typeof tool.description === 'string' && tool.description !== '' ? tool.description : undefined;
    return { name, ...(description === undefined ? {} : { description }), ...(parameters === undefined ? {} : { parameters }) };
  });
}
