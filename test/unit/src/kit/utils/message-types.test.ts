// The message types scorers see are the parsed contract's: a parsed run goes straight into the
// scorer utils, with the decoded values the types promise (createdAt a Date, reasoning details
// always present). The expectTypeOf lines are checked by `npm run typecheck`; the runtime
// assertions check that parsing delivers what those types say.
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { DbMessageInput } from '../../../../../src/kit/contracts/messages.ts';
import { parseAgentRunEvent } from '../../../../../src/kit/contracts/parse.ts';
import { getAssistantMessageFromRunOutput } from '../../../../../src/kit/utils/run-output.ts';
import type {
  DbMessage,
  MessageRole,
  ReasoningPart,
  ScorerRunInputForAgent,
  ScorerRunOutputForAgent,
  ToolInvocationState,
} from '../../../../../src/kit/utils/message-types.ts';
import { wireRunEvent } from '../contracts/fixtures.ts';

function parsedRun() {
  const wire = wireRunEvent();
  const [answer] = wire.output as DbMessageInput[];
  // A producer may omit a reasoning part's details; scorers still find an array.
  answer!.content.parts.splice(1, 1, { type: 'reasoning', reasoning: 'Look the order up.' });
  const parsed = parseAgentRunEvent(wire);
  if (!parsed.success) throw new Error(`fixture is invalid: ${JSON.stringify(parsed.problems)}`);
  return parsed.data;
}

describe('message types', () => {
  it('are what a parsed run hands the scorer utils', () => {
    const run = parsedRun();
    const input: ScorerRunInputForAgent = run.input;
    const output: ScorerRunOutputForAgent = run.output;
    expect(input.inputMessages[0]!.createdAt).toEqual(new Date('2025-03-01T10:00:00.000Z'));
    expect(output[0]!.createdAt).toBeInstanceOf(Date);
    const reasoning = output[0]!.content.parts.find((part): part is ReasoningPart => part.type === 'reasoning');
    expect(reasoning?.details).toEqual([]);
    expect(getAssistantMessageFromRunOutput(output)).toBe('Your order 1234 has shipped.');
  });

  it('are the output side of the contract: decoded dates, defaults filled in, closed unions', () => {
    expectTypeOf<DbMessage['createdAt']>().toEqualTypeOf<Date>();
    expectTypeOf<DbMessageInput['createdAt']>().toEqualTypeOf<string>();
    expectTypeOf<ReasoningPart['details']>().toBeArray();
    expectTypeOf<MessageRole>().toEqualTypeOf<'user' | 'assistant' | 'system' | 'signal'>();
    expectTypeOf<ToolInvocationState>().toEqualTypeOf<
      'partial-call' | 'call' | 'result' | 'output-error' | 'output-denied' | 'approval-requested' | 'approval-responded'
    >();
    expectTypeOf<ScorerRunOutputForAgent>().toEqualTypeOf<DbMessage[]>();
  });
});
