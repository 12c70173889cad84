// One sample run: its AgentRunEvent (the question with remembered turns, the tool calls, the
// answer, usage, metadata) and how good its answer is, drawn from the run's conversation and the
// traffic's mix (run-mix.ts); a degraded agent (degradation.ts) draws from the degraded mix. Every
// draw comes from the generator's seeded Random, in the same order, so a seed gives the same runs.
import type { AgentRunEventInput } from '../../src/kit/contracts/agent-run-event.ts';
import type { DbMessageInput } from '../../src/kit/contracts/messages.ts';
import { researchAgent } from './agents-knowledge.ts';
import { supportAgent } from './agents-support.ts';
import type { AnswerQuality } from './build-messages.ts';
import { answerText, responseMessages, textMessage, toolCalls } from './build-messages.ts';
import { newConversation } from './conversations.ts';
import { offeredTools } from './offered-tools.ts';
import type { Conversation } from './conversations.ts';
import { inDegradation } from './degradation.ts';
import type { Degradation } from './degradation.ts';
import type { Random } from './prng.ts';
import { degradedQualities, degradedToolOutcomes, qualities, runErrors, toolOutcomes } from './run-mix.ts';
import type { AgentProfile, Scenario } from './scenario-types.ts';
import type { Tenant } from './tenants.ts';
import { openingTurns, plansByTier } from './tenants.ts';

export function buildRun(random: Random, finishedAt: Date, degradation: Degradation | undefined, continued: Conversation | undefined, onStart?: (conversation: Conversation) => void): { event: AgentRunEventInput; answer: AnswerQuality | 'none' } {
  const conversation: Conversation = continued ?? newConversation(random);
  if (continued === undefined) onStart?.(conversation);
  const { agent, tenant, userId, thread, locale } = conversation;
  const degraded = degradation !== undefined && agent.entity.id === degradation.agentId && inDegradation(degradation, finishedAt.getTime());
  const scenario = random.pick(agent.scenarios);
  const model = random.pick(agent.models);
  const durationMs = random.int(700, 14_000);
  const startedAt = new Date(finishedAt.getTime() - durationMs);

  const remembered = rememberedMessages(random, scenario, startedAt, thread);
  const question = textMessage(random, 'user', scenario.question, startedAt, thread);
  const outcome = random.weighted(degraded ? degradedToolOutcomes : toolOutcomes);
  const { invocations, failed } = toolCalls(random, scenario, outcome);
  const mix = degraded ? degradedQualities : qualities;
  const quality = random.weighted(failed ? mix.map(([value, weight]) => [value, value === 'complete' ? weight / 2 : weight] as const) : mix);
  const runError = random.chance(0.04) ? random.pick(runErrors) : undefined;
  const text = runError !== undefined && random.chance(0.5) ? '' : answerText(scenario, quality, failed);
  const withReasoning = random.chance(0.45);
  const output = responseMessages(random, {
    scenario,
    invocations,
    text,
    withReasoning,
    extraParts: extraParts(random, agent, scenario),
    splitMessages: random.chance(0.15),
    model,
    startedAt,
    finishedAt,
    thread,
  });

  const inputTokens = random.int(250, 4200);
  const outputTokens = random.int(40, 900);
  const reasoningTokens = withReasoning ? random.int(20, 400) : undefined;
  const event: AgentRunEventInput = {
    schemaVersion: 1,
    type: 'agent.run.completed',
    runId: random.uuid(),
    timestamp: finishedAt.toISOString(),
    entity: agent.entity,
    input: {
      inputMessages: [question],
      rememberedMessages: remembered,
      systemMessages: systemMessages(random, agent, locale, finishedAt),
      taggedSystemMessages: random.chance(0.5) ? { memory: [{ role: 'system', content: random.pick(agent.memoryNotes) }] } : {},
    },
    output: runError !== undefined && text === '' && random.chance(0.5) ? [] : output,
    requestContext: {
      tenantId: tenant.id,
      // What the app's router decided the user wants: trajectory-match picks its expected steps by it.
      intent: scenario.id,
      tier: tenant.tier,
      locale,
      channel: random.weighted([['web', 6], ['mobile', 3], ['api', 2]] as const),
      user: { id: userId, plan: random.pick(plansByTier[tenant.tier]) },
    },
    tools: offeredTools(agent),
    metadata: metadata(random, agent, scenario, tenant),
    usage: {
      inputTokens,
      outputTokens,
      totalTokens: inputTokens + outputTokens,
      ...(reasoningTokens === undefined ? {} : { reasoningTokens }),
      ...(random.chance(0.3) ? { cachedInputTokens: random.int(0, inputTokens) } : {}),
    },
    durationMs,
  };
  if (random.chance(0.35)) event.groundTruth = scenario.answers.complete;
  if (runError !== undefined) event.error = { ...runError };
  return { event, answer: text === '' ? 'none' : quality };
}

function rememberedMessages(random: Random, scenario: Scenario, startedAt: Date, thread: { threadId: string; resourceId: string }): DbMessageInput[] {
  const turns = [...(random.chance(0.3) ? [random.pick(openingTurns)] : []), ...(random.chance(0.8) ? scenario.history : [])];
  const messages: DbMessageInput[] = [];
  let at = startedAt.getTime() - turns.length * 60_000;
  for (const [user, assistant] of turns) {
    messages.push(textMessage(random, 'user', user, new Date(at), thread));
    messages.push(textMessage(random, 'assistant', assistant, new Date(at + 5_000), thread));
    at += 60_000;
  }
  return messages;
}

function systemMessages(random: Random, agent: AgentProfile, locale: string, now: Date): AgentRunEventInput['input']['systemMessages'] {
  const messages: AgentRunEventInput['input']['systemMessages'] = [{ role: 'system', content: agent.instructions }];
  if (random.chance(0.4)) {
    messages.push({ role: 'system', content: [{ type: 'text', text: `Today is ${now.toISOString().slice(0, 10)}. Answer in the user's locale (${locale}).` }] });
  }
  return messages;
}

function extraParts(random: Random, agent: AgentProfile, scenario: Scenario): DbMessageInput['content']['parts'] {
  if (agent === researchAgent && random.chance(0.6)) {
    return [{ type: 'source', source: { sourceType: 'url', id: `src-${random.hex(6)}`, url: `https://example.org/${scenario.id}`, title: scenario.keyTerms[0] } }];
  }
  if (agent === supportAgent && random.chance(0.2)) {
    return [{ type: 'data-suggested-actions', data: { actions: ['Track package', 'Talk to a human'] } }];
  }
  return [];
}

function metadata(random: Random, agent: AgentProfile, scenario: Scenario, tenant: Tenant): AgentRunEventInput['metadata'] {
  const tags = [...agent.tags, scenario.id, ...(random.chance(0.1) ? ['beta'] : [])];
  return {
    tenantId: tenant.id,
    environment: random.weighted([['production', 8], ['staging', 2]] as const),
    tags,
    region: tenant.region,
  };
}
