// An example Scorestream deployment — copy it and make it yours. `scorestream demo` runs it.
//
// Code scorers always run. The LLM-judge and classifier scorers run when a judge model is
// configured through the environment — any OpenAI-compatible server (Ollama, vLLM, llama.cpp,
// or a hosted API), or a model on this machine (`scorestream demo --local-judge` sets this up):
//   SCORESTREAM_JUDGE_BASE_URL=http://localhost:11434/v1 SCORESTREAM_JUDGE_MODEL=llama3.1
//   SCORESTREAM_JUDGE_MODEL=local:gemma3-270m
// SCORESTREAM_JUDGE_SAMPLE_RATE scales the judges' sampling (default 1: the rates below).
// SCORESTREAM_EXAMPLE_THREAD_IDLE_MS is the thread scorers' idle gap (default 20000: 20 s).
// Brokers, group and topic names come from the environment too (KAFKA_BROKERS,
// SCORESTREAM_GROUP_ID, SCORESTREAM_TOPIC_RUNS, ...), so one file serves every environment.
import { Classifier, createClassifierScorer, defineConfig, getDefaultJudgeModels, judgeModelsFromEnv } from 'scorestream';
import {
  createAnswerRelevancyScorer,
  createCompletenessScorer,
  createKeywordCoverageScorer,
  createRunScoreMeanScorer,
  createToolCallAccuracyScorer,
  createTurnCountScorer,
  createToolErrorRateScorer,
  createRepeatedToolCallsScorer,
  createStepBudgetScorer,
  createToolArgumentValidityScorer,
  createToolErrorRecoveryScorer,
  createTrajectoryMatchScorer,
  createUnofferedToolCallsScorer,
  createTaskCompletionScorer,
  createToxicityScorer,
} from 'scorestream';
import type { ScorerBindingInput } from 'scorestream';

// An OpenAI-compatible server from SCORESTREAM_JUDGE_BASE_URL; else the models the `scorestream`
// command sets up for the process (it resolves local:… ids).
const judgeModels = judgeModelsFromEnv(process.env)?.models ?? getDefaultJudgeModels();
const judgeModelId = process.env.SCORESTREAM_JUDGE_MODEL?.trim() || undefined;
const judgeSampleRate = Number(process.env.SCORESTREAM_JUDGE_SAMPLE_RATE ?? '1');
const judgeSampling = (rate: number) => ({ type: 'ratio' as const, rate: rate * judgeSampleRate });
const threadIdleMs = Number(process.env.SCORESTREAM_EXAMPLE_THREAD_IDLE_MS ?? '20000');

// The tools each kind of request should call, in order (the sample agents' tasks).
const expectedToolsByIntent = {
  'order-status': ['lookupOrder'],
  'refund-request': ['lookupOrder', 'refundOrder'],
  'failing-test': ['runTests', 'readFile', 'applyPatch'],
};

// `pass` says what passing means: each scored record then carries its verdict, and the
// scorestream_verdicts_total metric gives exact pass rates (docs/alerts.md).
const codeScorers: ScorerBindingInput[] = [
  // Every run: cheap, deterministic checks.
  { scorer: createCompletenessScorer(), pass: { atLeast: 0.5 } },
  { scorer: createToolErrorRateScorer(), pass: { atLeast: 0.5, objective: 0.9 } },
  // The trajectory, without a judge (docs/scorers.md, trajectory scorers): calls to tools the
  // agent was not offered, arguments its tools' schemas refuse, loops, what it did after a tool
  // failed, and its step budget. The sample traffic holds each of these failures.
  { scorer: createUnofferedToolCallsScorer(), pass: { atLeast: 1 } },
  { scorer: createToolArgumentValidityScorer(), pass: { atLeast: 1 } },
  { scorer: createRepeatedToolCallsScorer(), pass: { atLeast: 0.75 } },
  { scorer: createToolErrorRecoveryScorer(), pass: { atLeast: 0.5 } },
  { scorer: createStepBudgetScorer({ maxToolCalls: 4, maxTotalTokens: 4_000, maxDurationMs: 12_000 }), pass: { atLeast: 0.5 } },
  // Picked by the router's intent in the request context; other requests are not checked.
  {
    scorer: createTrajectoryMatchScorer({ expected: expectedToolsByIntent }),
    filter: { op: 'in', value: { path: 'requestContext.intent' }, set: Object.keys(expectedToolsByIntent) },
    pass: { atLeast: 1 },
  },
  // Half of the traffic, decided by the trace id: the same runs at every replica and retry.
  // A person's thumbs-down on a run it passed scores that run again, marked with the feedback
  // (docs/feedback.md, re-scoring; `scorestream agreement` asks, the service decides).
  { scorer: createKeywordCoverageScorer(), sampling: { type: 'ratio', rate: 0.5 }, rescoreOn: ['thumbs-down'] },
  // Only the support agent is expected to look orders up.
  {
    scorer: createToolCallAccuracyScorer({ expectedTool: 'lookupOrder' }),
    filter: { op: 'eq', left: { path: 'entity.id' }, right: { literal: 'support-agent' } },
  },
  // Whole conversations (docs/threads.md): scored once a thread has been quiet for 20 s, and
  // re-scored with its whole history when it resumes.
  { scorer: createTurnCountScorer(), level: 'thread', thread: { idleMs: threadIdleMs } },
  { scorer: createRunScoreMeanScorer({ scorerId: 'completeness' }), level: 'thread', thread: { idleMs: threadIdleMs } },
];

function judgeScorers(modelId: string): ScorerBindingInput[] {
  const tone = new Classifier({
    id: 'support-tone',
    model: modelId,
    resolveModel: (id) => judgeModels!.languageModel(id) as never,
    questions: {
      tone: {
        type: 'choice',
        instructions: 'How does the assistant address the customer?',
        criteria: { warm: 'friendly and empathetic', neutral: 'matter-of-fact', curt: 'dismissive or rude' },
      },
    },
  });
  return [
    // Judges cost money: score a tenth of the enterprise tenants' traffic.
    {
      scorer: createAnswerRelevancyScorer({ model: modelId }),
      sampling: judgeSampling(0.1),
      filter: { op: 'eq', left: { path: 'requestContext.tier' }, right: { literal: 'enterprise' } },
      pass: { atLeast: 0.7 },
    },
    // Escalation (docs/spend-and-replay.md): judge task completion only where the trajectory's
    // code checks found trouble — a tool it was not offered, a loop, a failure it did not recover
    // from, a blown step budget — plus 5% of the other sampled runs, so the judge's agreement with the
    // checks stays measured. The checks run first; every sampled run not judged gets a not_escalated decision.
    {
      scorer: createTaskCompletionScorer({ model: modelId }),
      sampling: judgeSampling(0.25),
      escalate: {
        when: {
          op: 'or',
          args: ['unoffered-tool-calls', 'repeated-tool-calls', 'tool-error-recovery', 'step-budget'].map((id) => ({ op: 'eq' as const, left: { path: `scores.${id}.passed` }, right: { literal: false } })),
        },
        sample: 0.05,
      },
      pass: { atLeast: 0.5 },
    },
    // Lower is better: a pass is a score of at most 0.2.
    { scorer: createToxicityScorer({ model: modelId }), sampling: judgeSampling(0.05), pass: { atMost: 0.2 } },
    {
      scorer: createClassifierScorer({
        id: 'support-tone',
        classifier: tone,
        question: 'tone',
        scores: { warm: 1, neutral: 0.6, curt: 0 },
        state: ({ run }) => ({ answer: JSON.stringify(run.output).slice(0, 4000) }),
      }),
      sampling: judgeSampling(0.1),
      // A classifier passes by the choice it selected.
      pass: { labels: ['warm', 'neutral'] },
    },
  ];
}

export default defineConfig({
  scorers: judgeModelId === undefined || judgeModels === undefined ? codeScorers : [...codeScorers, ...judgeScorers(judgeModelId)],
  ...(judgeModels === undefined ? {} : { judge: { models: judgeModels } }),
  concurrency: { runsInFlight: 256, judgeCallsPerModel: 8 },
  // A ceiling on judge spend: past it, runs are recorded as budget_exhausted (re-score them later
  // with `scorestream replay`). Code scorers use no judge and are never affected.
  budgets: [{ name: 'judge-tokens-per-minute', of: 'tokens', max: 200_000, window: 'minute' }],
  shutdownTimeoutMs: 30_000,
  // In-stream monitors for a team without Prometheus (`scorestream monitor`; the demo runs them):
  // a breach record on agent-score-alerts when a windowed aggregate crosses its threshold for
  // `for`, a recovered record when it ends (docs/alerts.md). The demo's sample traffic degrades
  // the support agent for 90 s a minute after it starts, and every 5 minutes after.
  monitors: [
    { name: 'support-agent-completeness', scorer: 'completeness', agent: 'support-agent', aggregation: 'mean', window: '1m', threshold: { below: 0.25 }, for: '15s', cooldown: '2m', minSamples: 20 },
    { name: 'support-agent-tool-pass-rate', scorer: 'tool-error-rate', agent: 'support-agent', aggregation: 'passRate', window: '1m', threshold: { below: 0.72 }, for: '15s', cooldown: '2m', minSamples: 20 },
    // A quiet stream is evaluated too: no completeness score for a minute is a breach.
    { name: 'completeness-scores-arriving', scorer: 'completeness', aggregation: 'count', window: '1m', threshold: { below: 1 }, for: '30s' },
  ],
  alerts: { evaluateEvery: '2s' },
});
