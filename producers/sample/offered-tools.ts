// The tools each sample agent is offered, as a producer would publish them in the run's `tools`:
// every tool its tasks use (the right ones and the one it sometimes picks by mistake), described,
// with a JSON Schema of its arguments derived from the arguments its tasks pass — so the schema
// accepts every right call and the trajectory scorers can tell a bad argument from a good one.
import type { ToolDefinition } from '../../src/kit/contracts/agent-run-event.ts';
import type { AgentProfile, ToolStep } from './scenario-types.ts';

const DESCRIPTIONS: Readonly<Record<string, string>> = {
  lookupOrder: 'Look an order up by its number: status, carrier, delivery date, items and total.',
  refundOrder: 'Refund an order, in full or in part, to the original payment method.',
  createTicket: 'Open a ticket for a human colleague to follow up.',
  searchKnowledgeBase: 'Search the help-centre articles.',
  searchFlights: 'Search flights between two airports on a date.',
  searchHotels: 'Search hotels in a city for a stay.',
  getWeather: 'The weather forecast for a city on a date.',
  webSearch: 'Search the web; returns titles, URLs and snippets.',
  fetchPage: 'Fetch a web page as text.',
  summarize: 'Summarize a text.',
  searchCode: 'Search the repository for a pattern.',
  readFile: "Read a file of the repository.",
  applyPatch: 'Apply a unified diff to the repository.',
  runTests: 'Run the test suite, or the tests matching a filter.',
};

function jsonType(value: unknown): string {
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'boolean';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'object' && value !== null) return 'object';
  return 'string';
}

/** An object schema with each argument any use passes; required are those every use passes. */
function parametersOf(uses: readonly ToolStep[]): Record<string, unknown> {
  const properties: Record<string, { type: string }> = {};
  for (const use of uses) for (const [key, value] of Object.entries(use.args)) properties[key] ??= { type: jsonType(value) };
  const required = Object.keys(properties).filter((key) => uses.every((use) => key in use.args));
  return { type: 'object', properties, required, additionalProperties: false };
}

function definitionsOf(agent: AgentProfile): ToolDefinition[] {
  const uses = new Map<string, ToolStep[]>();
  for (const scenario of agent.scenarios) {
    for (const step of [...scenario.tools, scenario.wrongTool]) uses.set(step.toolName, [...(uses.get(step.toolName) ?? []), step]);
  }
  return [...uses].map(([name, steps]) => ({ name, ...(DESCRIPTIONS[name] === undefined ? {} : { description: DESCRIPTIONS[name] }), parameters: parametersOf(steps) }));
}

const byAgent = new Map<AgentProfile, ToolDefinition[]>();

/** The agent's offered tools (built once per profile; the same array for every run). */
export function offeredTools(agent: AgentProfile): ToolDefinition[] {
  let definitions = byAgent.get(agent);
  if (definitions === undefined) byAgent.set(agent, (definitions = definitionsOf(agent)));
  return definitions;
}
