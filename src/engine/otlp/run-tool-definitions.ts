// The tools a run's agent was offered, as its spans spell them (the run event's `tools`). Each
// convention writes the list its own way, and the real frameworks do all of these
// (test/fixtures/otlp/):
//   - GenAI semantic conventions: `gen_ai.tool.definitions`, a JSON list of
//     `{ type: 'function', name, description, parameters }` (OpenLLMetry, Pydantic AI) — or of
//     bare names (Mastra);
//   - OpenInference: `llm.tools.N.tool.json_schema`, each an OpenAI tool
//     `{ type: 'function', function: { name, description, parameters } }`;
//   - OpenLLMetry's older flattened `llm.request.functions.N.{name, description, parameters}`;
//   - the AI SDK: `ai.prompt.tools`, a list of JSON strings of `{ type, name, description, inputSchema }`;
//   - Strands: `gen_ai.agent.tools`, the names only, on the agent span.
// Anthropic's `{ name, description, input_schema }` is read wherever a definition is. A list found
// on the run's span, its agents or its model calls is the offered set (model calls may each carry
// it: the union, first definition of a name kept). Tool spans never make the list — a span says a
// tool was called, not that it was offered — but their schema (`gen_ai.tool.json_schema`,
// OpenInference's `tool.parameters`) and description fill in what the list leaves out of a tool it names.
// No list anywhere: undefined, "not known", never an empty list.
import type { ToolDefinition } from '../../kit/contracts/agent-run-event.ts';
import type { OtlpSpan } from './otlp-span.ts';
import { unflatten } from './flattened-attributes.ts';
import { isRecord, jsonOrValue } from './read-messages.ts';

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** A JSON Schema given as an object or as its JSON text; undefined when it is neither. */
function schemaOf(value: unknown): Record<string, unknown> | undefined {
  const parsed = typeof value === 'string' ? jsonOrValue(value) : value;
  return isRecord(parsed) ? parsed : undefined;
}

/** One definition in any of the shapes above (an OpenAI tool's `function` unwrapped); undefined when it names no tool. */
export function readToolDefinition(value: unknown): ToolDefinition | undefined {
  const item = typeof value === 'string' ? jsonOrValue(value) : value;
  if (typeof item === 'string') return item === '' ? undefined : { name: item };
  if (!isRecord(item)) return undefined;
  const body = isRecord(item.function) ? item.function : item;
  const name = text(body.name);
  if (name === undefined) return undefined;
  const description = text(body.description);
  const parameters = schemaOf(body.parameters ?? body.inputSchema ?? body.input_schema ?? body.parameters_json_schema ?? body.json_schema);
  return { name, ...(description === undefined ? {} : { description }), ...(parameters === undefined ? {} : { parameters }) };
}

function definitionsIn(list: unknown): ToolDefinition[] {
  const parsed = typeof list === 'string' ? jsonOrValue(list) : list;
  if (!Array.isArray(parsed)) return [];
  return parsed.map(readToolDefinition).filter((tool) => tool !== undefined);
}

/** The tool list one span carries, in whichever convention; undefined when it carries none. */
function definitionsOfSpan(span: OtlpSpan): ToolDefinition[] | undefined {
  const a = span.attributes;
  const lists: ToolDefinition[][] = [];
  if (a['gen_ai.tool.definitions'] !== undefined) lists.push(definitionsIn(a['gen_ai.tool.definitions']));
  if (a['ai.prompt.tools'] !== undefined) lists.push(definitionsIn(a['ai.prompt.tools']));
  if (a['gen_ai.agent.tools'] !== undefined) lists.push(definitionsIn(a['gen_ai.agent.tools']));
  const openInference = unflatten(a, 'llm.tools');
  if (openInference !== undefined) lists.push(definitionsIn(openInference.map((entry) => (isRecord(entry) && isRecord(entry.tool) ? entry.tool.json_schema : undefined))));
  const openLlmetry = unflatten(a, 'llm.request.functions');
  if (openLlmetry !== undefined) lists.push(definitionsIn(openLlmetry));
  return lists.length === 0 ? undefined : lists.flat();
}

/** What a tool span records of the tool it ran (its schema and description), by name. */
function definitionOfToolSpan(span: OtlpSpan): ToolDefinition | undefined {
  const a = span.attributes;
  const name = text(a['gen_ai.tool.name']) ?? text(a['tool.name']);
  if (name === undefined) return undefined;
  const description = text(a['gen_ai.tool.description']) ?? text(a['tool.description']);
  const parameters = schemaOf(a['gen_ai.tool.json_schema'] ?? a['tool.parameters']);
  return { name, ...(description === undefined ? {} : { description }), ...(parameters === undefined ? {} : { parameters }) };
}

/**
 * `known` with what it lacks taken from `other`: a name listed bare on one span and in full on
 * another (Strands: the names on the agent span) keeps the full definition.
 */
function fillIn(known: ToolDefinition, other: ToolDefinition): ToolDefinition {
  const description = known.description ?? other.description;
  const parameters = known.parameters ?? other.parameters;
  return { ...known, ...(description === undefined ? {} : { description }), ...(parameters === undefined ? {} : { parameters }) };
}

/**
 * The offered tools of a run: the union of the lists on `listSpans` (the run's span, its agents,
 * its model calls, in that order), completed with the schemas and descriptions its `toolSpans` record.
 */
export function offeredToolsOfRun(listSpans: readonly OtlpSpan[], toolSpans: readonly OtlpSpan[]): ToolDefinition[] | undefined {
  let found = false;
  const byName = new Map<string, ToolDefinition>();
  for (const span of listSpans) {
    const definitions = definitionsOfSpan(span);
    if (definitions === undefined) continue;
    found = true;
    for (const definition of definitions) {
      const known = byName.get(definition.name);
      byName.set(definition.name, known === undefined ? definition : fillIn(known, definition));
    }
  }
  if (!found) return undefined;
  for (const span of toolSpans) {
    const recorded = definitionOfToolSpan(span);
    const known = recorded === undefined ? undefined : byName.get(recorded.name);
    if (recorded !== undefined && known !== undefined) byName.set(recorded.name, fillIn(known, recorded));
  }
  return [...byName.values()];
}
