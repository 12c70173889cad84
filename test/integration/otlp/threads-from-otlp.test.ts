// A conversation that arrives as OpenTelemetry traces (docs/threads.md, docs/otlp.md): three agent
// traces, one per turn, in each convention family (GenAI, OpenInference, OpenLLMetry), sharing the
// conversation id where that family puts it, each its own
// OTLP message on the runs topic of an `input.format: 'otlp'` service with thread scorers bound.
// The OTLP input assembles each trace into a run whose messages carry the conversation id as their
// threadId; the runs join one thread (tenant from the resource), and a thread scorer sees the whole
// conversation: every turn in order with its own question, answer and run scores, and the turns
// flattened into input and output for Mastra's utils.
import { ROOT_CONTEXT } from '@opentelemetry/api';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { ScoreRecord } from '../../../src/kit/contracts/score-record.ts';
import { createScorer } from '../../../src/kit/scorer/create-scorer.ts';
import { createTurnCountScorer } from '../../../src/kit/scorers/code/turn-count/index.ts';
import { threadRunOf } from '../../../src/kit/scorer/thread-run.ts';
import type { ThreadRunView } from '../../../src/kit/scorer/thread-run.ts';
import { getAssistantMessageFromRunOutput } from '../../../src/kit/utils/run-output.ts';
import { getUserMessageFromRunInput } from '../../../src/kit/utils/run-input.ts';
import { answerLengthScorer } from '../../fixtures/scorers.ts';
import { encodeSpans, spanRecorder } from '../../helpers/otlp-traces.ts';
import { produceRaw, readUntil, startTestService, useServiceTopics } from '../../helpers/service.ts';

const turns = [
  { question: 'My order 1182 has not arrived.', answer: 'I see order 1182 left the warehouse on Monday.' },
  { question: 'When will it arrive?', answer: 'The carrier expects it on Thursday.' },
  { question: 'Thanks, that solves it.', answer: 'Glad to help. Anything else?' },
];

// A minute apart, as a person's turns are: turns are ordered by run timestamp (the agent span's end,
// to the millisecond), and three spans recorded in one loop would often share one.
const conversationStart = Date.now() - 10 * 60_000;

type Family = 'genai' | 'openinference' | 'openllmetry';

/**
 * One agent turn as a trace of one convention family, the conversation id where that family puts
 * it, the earlier turns sent again as history: GenAI invoke_agent (`gen_ai.conversation.id`) → chat;
 * OpenInference AGENT (`session.id`, messages in `input.value`) → LLM; OpenLLMetry agent
 * (`traceloop.association.properties.session_id`, the messages as the decorated call's argument).
 */
function recordTurn(recorder: ReturnType<typeof spanRecorder>, index: number, family: Family): void {
  const { question, answer } = turns[index]!;
  const startTime = conversationStart + index * 60_000;
  const endTime = startTime + 2_000;
  const history = turns.slice(0, index).flatMap((turn) => [
    { role: 'user', parts: [{ type: 'text', content: turn.question }] },
    { role: 'assistant', parts: [{ type: 'text', content: turn.answer }] },
  ]);
  const input = JSON.stringify([...history, { role: 'user', parts: [{ type: 'text', content: question }] }]);
  const output = JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: answer }] }]);
  const plain = [...turns.slice(0, index).flatMap((turn) => [{ role: 'user', content: turn.question }, { role: 'assistant', content: turn.answer }]), { role: 'user', content: question }];
  const attributes = {
    genai: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'Support Agent', 'gen_ai.conversation.id': 'conv-1182', 'gen_ai.input.messages': input, 'gen_ai.output.messages': output },
    openinference: { 'openinference.span.kind': 'AGENT', 'session.id': 'conv-1182', 'input.value': JSON.stringify({ messages: plain }), 'input.mime_type': 'application/json', 'output.value': answer, 'output.mime_type': 'text/plain' },
    openllmetry: { 'traceloop.span.kind': 'agent', 'traceloop.entity.name': 'support_agent', 'traceloop.association.properties.session_id': 'conv-1182', 'traceloop.entity.input': JSON.stringify({ args: [plain], kwargs: {} }), 'traceloop.entity.output': JSON.stringify(answer) },
  }[family];
  const model = {
    genai: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4o-mini', 'gen_ai.provider.name': 'openai', 'gen_ai.input.messages': input, 'gen_ai.output.messages': output },
    openinference: { 'openinference.span.kind': 'LLM', 'session.id': 'conv-1182', 'llm.model_name': 'gpt-4o-mini' },
    openllmetry: { 'llm.request.type': 'chat', 'gen_ai.request.model': 'gpt-4o-mini', 'traceloop.association.properties.session_id': 'conv-1182' },
  }[family];
  recorder.tracer.startActiveSpan('Support Agent', { attributes, startTime }, ROOT_CONTEXT, (agent) => {
    recorder.tracer.startSpan('chat gpt-4o-mini', { startTime: startTime + 100, attributes: model }).end(endTime - 100);
    agent.end(endTime);
  });
}

describe('a conversation assembled from OTLP traces', () => {
  it.each(['genai', 'openinference', 'openllmetry'] as const)('%s: joins one thread by its conversation id, and the thread scorer sees every turn in order with its question, answer and run scores', async (family) => {
    const topics = await useServiceTopics(2);
    const recorder = spanRecorder({ 'service.name': 'support-service', 'tenant.id': 'acme' });
    onTestFinished(() => recorder.shutdown());
    const messages = [];
    for (const index of turns.keys()) {
      recorder.reset();
      recordTurn(recorder, index, family);
      // Each turn's trace in a message of its own, as an exporter sends a trace when it ends.
      messages.push({ key: null, value: encodeSpans(recorder.spans(), 'otlp_proto') });
    }
    await produceRaw(topics.runs, messages);

    const seen: ThreadRunView[] = [];
    const flattened: { question?: string; answer?: string }[] = [];
    const transcript = createScorer({ id: 'transcript', description: 'What a thread scorer sees' })
      .preprocess(({ run }) => {
        const thread = threadRunOf(run);
        if (thread !== undefined) seen.push(thread);
        flattened.push({ question: getUserMessageFromRunInput((run as { input: unknown }).input), answer: getAssistantMessageFromRunOutput((run as { output: unknown }).output) });
        return {};
      })
      .generateScore(() => 1);
    await startTestService({
      topics,
      input: { format: 'otlp', gracePeriodMs: 200 },
      scorers: [{ scorer: answerLengthScorer }, { scorer: createTurnCountScorer(), level: 'thread', thread: { idleMs: 1_500 } }, { scorer: transcript, level: 'thread', thread: { idleMs: 1_500 } }],
    });

    const records = await readUntil<ScoreRecord>(topics.results, (all) => all.filter((record) => record.thread !== undefined).length >= 2, 60_000);
    const runScores = records.filter((record) => record.thread === undefined);
    expect(runScores).toHaveLength(3);
    const turnCount = records.find((record) => record.scorerId === 'turn-count')!;
    expect(turnCount).toMatchObject({ status: 'scored', score: 3, thread: { id: 'conv-1182', turns: 3, version: 1, closedBy: 'idle' } });
    // The run ids the OTLP input gives agent spans (<traceId>-<spanId>), first and last turn.
    const runIds = runScores.map((record) => record.runId);
    expect(runIds).toContain(turnCount.thread!.firstRunId);
    expect(runIds).toContain(turnCount.thread!.lastRunId);
    expect(turnCount.thread!.firstRunId).toMatch(/^[0-9a-f]{32}-[0-9a-f]{16}$/);

    expect(seen).toHaveLength(1);
    const [thread] = seen;
    // Each turn's timestamp is its agent span's end.
    expect(thread!.turns.map((turn) => turn.timestamp)).toEqual(turns.map((_, index) => new Date(conversationStart + index * 60_000 + 2_000).toISOString()));
    expect(thread!.turns.map((turn) => getUserMessageFromRunInput(turn.input))).toEqual(turns.map((turn) => turn.question));
    expect(thread!.turns.map((turn) => getAssistantMessageFromRunOutput(turn.output))).toEqual(turns.map((turn) => turn.answer));
    // Each turn carried its run score (answer-length) to the thread.
    expect(thread!.turns.map((turn) => turn.runScores.map((score) => score.scorerId))).toEqual([['answer-length'], ['answer-length'], ['answer-length']]);
    // Flattened for Mastra's utils: the opening request and the final answer.
    expect(flattened).toEqual([{ question: turns[0]!.question, answer: turns[2]!.answer }]);
    // The history the agent was sent again with each turn is the thread's own earlier turns: each
    // turn keeps only its new question, and says it shed the recalled history.
    expect(thread!.turns.map((turn) => turn.input.inputMessages.length)).toEqual([1, 1, 1]);
    expect(thread!.turns.map((turn) => turn.input.rememberedMessages.length)).toEqual([0, 0, 0]);
    expect(thread!.turns.map((turn) => turn.shed ?? [])).toEqual([[], ['rememberedMessages'], ['rememberedMessages']]);
  });
});
