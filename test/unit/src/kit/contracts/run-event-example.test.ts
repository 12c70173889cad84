// docs/contracts.md's complete JSON run event is a valid AgentRunEvent v1 and names every
// top-level field of the contract (but `error`, described beside it), so producers in other
// languages can copy it and it cannot fall behind the schema.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { agentRunEventSchema } from '../../../../../src/kit/contracts/agent-run-event.ts';
import { parseAgentRunEvent } from '../../../../../src/kit/contracts/parse.ts';

const page = readFileSync(new URL('../../../../../docs/contracts.md', import.meta.url), 'utf8');
const block = /### A complete run event[\s\S]*?```json\n([\s\S]*?)```/.exec(page)?.[1];

describe("docs/contracts.md's complete run event", () => {
  it('is valid against the contract', () => {
    expect(block).toBeDefined();
    const parsed = parseAgentRunEvent(JSON.parse(block!));
    expect(parsed.success ? [] : parsed.problems).toEqual([]);
  });

  it('names every top-level field of the contract but error and missing (a run that failed or lacks content is not complete), and every part of the input', () => {
    const example = JSON.parse(block!) as Record<string, unknown>;
    const fields = Object.keys(agentRunEventSchema.shape).filter((field) => field !== 'error' && field !== 'missing');
    expect(Object.keys(example).sort()).toEqual(fields.sort());
    expect(Object.keys(example.input as object).sort()).toEqual(['inputMessages', 'rememberedMessages', 'systemMessages', 'taggedSystemMessages']);
  });
});
