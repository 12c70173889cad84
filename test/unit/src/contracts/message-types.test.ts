// The parsed contract must hand scorers exactly the message types src/utils declares (Mastra's
// names), so a parsed run goes straight into the scorer utils. The assignments below are checked
// by `npm run typecheck`; the runtime test feeds a parsed message through a util.
import { describe, expect, it } from 'vitest';
import type { AgentRunEvent } from '../../../../src/contracts/index.ts';
import { parseAgentRunEvent } from '../../../../src/contracts/index.ts';
import type { CoreSystemMessage, DbMessage, MessagePart, ScorerRunInputForAgent, ToolInvocation } from '../../../../src/utils/index.ts';
import { getAssistantMessageFromRunOutput } from '../../../../src/utils/index.ts';
import { wireRunEvent } from './fixtures.ts';

type Parsed = AgentRunEvent;
export type MessageCompatible = Parsed['output'][number] extends DbMessage ? true : never;
export type InputCompatible = Parsed['input'] extends ScorerRunInputForAgent ? true : never;
export type PartCompatible = Parsed['output'][number]['content']['parts'][number] extends MessagePart ? true : never;
export type SystemCompatible = Parsed['input']['systemMessages'][number] extends CoreSystemMessage ? true : never;
export type ToolCompatible = NonNullable<Parsed['output'][number]['content']['toolInvocations']>[number] extends ToolInvocation ? true : never;
const compatible: [MessageCompatible, InputCompatible, PartCompatible, SystemCompatible, ToolCompatible] = [true, true, true, true, true];

describe('contract message types', () => {
  it('parse into the shapes the scorer utils read', () => {
    const parsed = parseAgentRunEvent(wireRunEvent());
    if (!parsed.success) throw new Error('fixture is invalid');
    const output: DbMessage[] = parsed.data.output;
    expect(getAssistantMessageFromRunOutput(output)).toBe('Your order 1234 has shipped.');
    expect(compatible).toHaveLength(5);
  });
});
