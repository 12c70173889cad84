// The labelled cases as the run events an agent's producer would publish (docs/contracts.md, the
// run event): the user's question as the turn's input, the agent's tool calls and its answer as
// the output. A user can publish these to a topic and score them with the real service, too.
import type { AgentRunEventInput } from '../../src/kit/contracts/agent-run-event.ts';
import type { DbMessageInput } from '../../src/kit/contracts/messages.ts';
import type { LabelledCase } from './labelled-cases.ts';

// One fixed instant: the set is data, so the same case always yields the same event.
const timestamp = '2026-12-01T09:00:00.000Z';

export function labelledRunEvent(labelled: LabelledCase): AgentRunEventInput {
  const toolInvocations = (labelled.tools ?? []).map((tool, index) => ({
    toolCallId: `${labelled.id}-call-${index + 1}`,
    toolName: tool.name,
    args: tool.args,
    result: tool.result,
    state: 'result' as const,
  }));
  const question: DbMessageInput = {
    id: `${labelled.id}-user`,
    role: 'user',
    createdAt: timestamp,
    content: { format: 2, parts: [{ type: 'text', text: labelled.question }], content: labelled.question },
  };
  const answer: DbMessageInput = {
    id: `${labelled.id}-assistant`,
    role: 'assistant',
    createdAt: timestamp,
    content: {
      format: 2,
      parts: [
        ...toolInvocations.map((toolInvocation) => ({ type: 'tool-invocation' as const, toolInvocation })),
        { type: 'text', text: labelled.answer },
      ],
      content: labelled.answer,
      ...(toolInvocations.length > 0 ? { toolInvocations } : {}),
    },
  };
  return {
    schemaVersion: 1,
    type: 'agent.run.completed',
    runId: `judge-quality-${labelled.id}`,
    timestamp,
    entity: { type: 'agent', id: labelled.agent },
    input: { inputMessages: [question], rememberedMessages: [], systemMessages: [], taggedSystemMessages: {} },
    output: [answer],
    metadata: { tags: ['judge-quality'] },
  };
}
