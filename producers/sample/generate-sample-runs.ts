// Deterministic sample agent traffic: realistic AgentRunEvents from several agents and tenants,
// each with its own trace context. Same seed and clock readings → the same runs, byte for byte.
// The mix is tuned so code scorers (keyword coverage, completeness, tool accuracy) see a spread
// of scores: most answers are complete, some partial or off topic, some tools fail.
import { ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';
import type { Context, SpanContext } from '@opentelemetry/api';
import type { AgentRunEventInput } from '../../src/kit/contracts/agent-run-event.ts';
import type { DbMessageInput } from '../../src/kit/contracts/messages.ts';
import { codingAssistant, researchAgent } from './agents-knowledge.ts';
import { supportAgent, travelWorkflow } from './agents-support.ts';
import type { AnswerQuality, ToolOutcome } from './build-messages.ts';
import { answerText, responseMessages, textMessage, toolCalls } from './build-messages.ts';
import type { Random } from './prng.ts';
import { createRandom } from './prng.ts';
import type { AgentProfile, Scenario } from './scenario-types.ts';
import type { Tenant } from './tenants.ts';
import { openingTurns, plansByTier, tenants } from './tenants.ts';

export type SampleRun = {
  event: AgentRunEventInput;
  /** The agent run's span: publish the run inside it (`sampleRunContext`) to link scores to it. */
  spanContext: SpanContext;
  /** The answer the agent gave, as the catalogue grades it ('none': no answer text): what a simulated person reacts to (sample-feedback.ts). */
  answer: AnswerQuality | 'none';
};

export type SampleRunGeneratorOptions = {
  /** Default 'scorestream'. */
  seed?: string | number;
  /** When each run completes; default the system clock. */
  clock?: () => Date;
  /** Share of runs whose trace is sampled (W3C sampled flag); default 0.9. */
  sampledRatio?: number;
  /** Also put the trace context in the event body (`trace`), for header-less transports. */
  includeTraceInBody?: boolean;
  /** Episodes in which one agent answers badly (the demo's monitor fires on them; docs/alerts.md). */
  degradation?: Degradation;
};

/**
 * One agent degrades from `startsAt` for `durationMs`, again every `everyMs` when given: its
 * answers are mostly off topic or empty and its tools fail more. Decided by each run's clock
 * reading, so the same seed and clock readings still give the same runs.
 */
export type Degradation = { agentId: string; startsAt: number; durationMs: number; everyMs?: number };

/** Whether `atMs` falls in an episode of `degradation`. */
export function inDegradation(degradation: Degradation, atMs: number): boolean {
  const since = atMs - degradation.startsAt;
  if (since < 0) return false;
  const offset = degradation.everyMs === undefined ? since : since % degradation.everyMs;
  return offset < degradation.durationMs;
}

export type SampleRunGenerator = { next(): SampleRun };

const agents: ReadonlyArray<readonly [AgentProfile, number]> = [
  [supportAgent, 5],
  [researchAgent, 3],
  [codingAssistant, 3],
  [travelWorkflow, 2],
];

const toolOutcomes: ReadonlyArray<readonly [ToolOutcome, number]> = [
  ['ok', 60],
  ['reported_error', 12],
  ['thrown_error', 10],
  ['wrong_tool', 10],
  ['no_tools', 8],
];

const qualities: ReadonlyArray<readonly [AnswerQuality, number]> = [
  ['complete', 40],
  ['mostly', 18],
  ['partial', 22],
  ['offTopic', 14],
  ['empty', 6],
];

/** A degraded agent (Degradation): answers mostly off topic or empty, tools failing more often. */
const degradedToolOutcomes: ReadonlyArray<readonly [ToolOutcome, number]> = [
  ['ok', 30],
  ['reported_error', 25],
  ['thrown_error', 25],
  ['wrong_tool', 15],
  ['no_tools', 5],
];
const degradedQualities: ReadonlyArray<readonly [AnswerQuality, number]> = [
  ['complete', 4],
  ['mostly', 4],
  ['partial', 12],
  ['offTopic', 50],
  ['empty', 30],
];

const runErrors = [
  { name: 'AgentTimeoutError', message: 'the agent did not finish within 30000 ms' },
  { name: 'APICallError', message: 'model provider returned 529: overloaded' },
  { name: 'ToolExecutionError', message: 'tool loop exceeded maxSteps (8)' },
] as const;

/** The context to publish a sample run in: its span as the (remote) parent. */
export function sampleRunContext(sample: SampleRun): Context {
  return trace.setSpanContext(ROOT_CONTEXT, sample.spanContext);
}

export function createSampleRunGenerator(options: SampleRunGeneratorOptions = {}): SampleRunGenerator {
  const random = createRandom(options.seed ?? 'scorestream');
  const clock = options.clock ?? (() => new Date());
  const sampledRatio = options.sampledRatio ?? 0.9;
  const conversations = new Conversations();
  return {
    next() {
      const finishedAt = clock();
      const spanContext: SpanContext = {
        traceId: random.hex(32),
        spanId: random.hex(16),
        traceFlags: random.chance(sampledRatio) ? TraceFlags.SAMPLED : TraceFlags.NONE,
      };
      const { event, answer } = buildRun(random, finishedAt, options.degradation, conversations.nextTurn(random, finishedAt.getTime()), (started) => conversations.started(started, finishedAt.getTime()));
      if (options.includeTraceInBody === true) {
        event.trace = { traceparent: `00-${spanContext.traceId}-${spanContext.spanId}-0${spanContext.traceFlags}` };
      }
      return { event, spanContext, answer };
    },
  };
}

export function generateSampleRuns(count: number, options: SampleRunGeneratorOptions = {}): SampleRun[] {
  const generator = createSampleRunGenerator(options);
  return Array.from({ length: count }, () => generator.next());
}

/** Who a run talks to and in which thread: drawn for a new conversation, kept for its later turns. */
type Conversation = {
  agent: AgentProfile;
  tenant: (typeof tenants)[number];
  userId: string;
  thread: { threadId: string; resourceId: string };
  locale: string;
  turnsLeft: number;
  /** When its last turn finished (epoch ms), once it has. */
  finishedAt?: number;
};

/** A finished conversation is resumed only this long after its last turn: past a thread scorer's idle gap (the example binds 20 s). */
const RESUME_AFTER_MS = 30_000;

/**
 * Multi-turn traffic (docs/threads.md): a run continues an open conversation about half the time;
 * a new one takes 1–4 turns; a few finished conversations are resumed, at least RESUME_AFTER_MS
 * after their last turn (once their thread went idle and was scored, so a resumed thread is
 * re-scored). Bounded: at most 24 open and 24 resumable conversations are remembered.
 */
class Conversations {
  readonly #open: Conversation[] = [];
  readonly #finished: Conversation[] = [];

  nextTurn(random: Random, now: number): Conversation | undefined {
    const oldest = this.#finished[0];
    if (oldest !== undefined && now - oldest.finishedAt! >= RESUME_AFTER_MS && random.chance(0.1)) {
      this.#finished.shift();
      oldest.turnsLeft = random.int(1, 2);
      return this.#take(oldest, now);
    }
    if (this.#open.length > 0 && random.chance(0.45)) return this.#take(random.pick(this.#open), now);
    return undefined;
  }

  /** A new conversation's first turn was drawn: remember it for its later turns. */
  started(conversation: Conversation, now: number): void {
    if (conversation.turnsLeft <= 0) return this.#finish(conversation, now);
    this.#open.push(conversation);
    if (this.#open.length > 24) this.#finish(this.#open.shift()!, now);
  }

  #take(conversation: Conversation, now: number): Conversation {
    conversation.turnsLeft -= 1;
    const index = this.#open.indexOf(conversation);
    if (conversation.turnsLeft <= 0) {
      if (index >= 0) this.#open.splice(index, 1);
      this.#finish(conversation, now);
    } else if (index < 0) this.#open.push(conversation);
    return conversation;
  }

  #finish(conversation: Conversation, now: number): void {
    conversation.finishedAt = now;
    this.#finished.push(conversation);
    if (this.#finished.length > 24) this.#finished.shift();
  }
}

function buildRun(random: Random, finishedAt: Date, degradation: Degradation | undefined, continued: Conversation | undefined, onStart?: (conversation: Conversation) => void): { event: AgentRunEventInput; answer: AnswerQuality | 'none' } {
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
      tier: tenant.tier,
      locale,
      channel: random.weighted([['web', 6], ['mobile', 3], ['api', 2]] as const),
      user: { id: userId, plan: random.pick(plansByTier[tenant.tier]) },
    },
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

function newConversation(random: Random): Conversation {
  const agent = random.weighted(agents);
  const tenant = random.weighted(tenants.map((entry) => [entry, entry.weight] as const));
  const userId = `user-${random.hex(8)}`;
  return { agent, tenant, userId, thread: { threadId: `thread-${random.hex(10)}`, resourceId: userId }, locale: random.pick(tenant.locales), turnsLeft: random.weighted([[0, 4], [1, 3], [2, 2], [3, 1]] as const) };
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
