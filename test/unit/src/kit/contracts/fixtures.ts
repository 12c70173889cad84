// Wire-shaped (JSON) contract values for the contract tests: each builder returns a fresh, valid
// object the test may break in one place.
import type { AgentRunEventInput } from '../../../../../src/kit/contracts/agent-run-event.ts';
import type { AgreementRecord } from '../../../../../src/kit/contracts/agreement-record.ts';
import type { DecisionRecord } from '../../../../../src/kit/contracts/decision-record.ts';
import type { FeedbackRecordInput } from '../../../../../src/kit/contracts/feedback-record.ts';
import type { ScoreRecord } from '../../../../../src/kit/contracts/score-record.ts';

export function wireRunEvent(): AgentRunEventInput & Record<string, unknown> {
  return {
    schemaVersion: 1,
    type: 'agent.run.completed',
    runId: 'run-1',
    timestamp: '2025-03-01T10:00:05.000Z',
    entity: { type: 'agent', id: 'support-agent', name: 'Support', version: '3' },
    input: {
      inputMessages: [
        {
          id: 'm-1',
          role: 'user',
          createdAt: '2025-03-01T10:00:00.000Z',
          content: { format: 2, parts: [{ type: 'text', text: 'Where is my order 1234?' }], content: 'Where is my order 1234?' },
        },
      ],
      rememberedMessages: [],
      systemMessages: [{ role: 'system', content: 'You are a helpful support agent.' }],
      taggedSystemMessages: { memory: [{ role: 'system', content: [{ type: 'text', text: 'User prefers email.' }] }] },
    },
    output: [
      {
        id: 'm-2',
        role: 'assistant',
        createdAt: '2025-03-01T10:00:04.000Z',
        content: {
          format: 2,
          parts: [
            { type: 'step-start' },
            { type: 'reasoning', reasoning: 'Look the order up.', details: [{ type: 'text', text: 'Look the order up.' }] },
            {
              type: 'tool-invocation',
              toolInvocation: { toolCallId: 'call-1', toolName: 'lookupOrder', args: { orderId: '1234' }, state: 'result', result: { status: 'shipped' }, step: 0 },
            },
            { type: 'text', text: 'Your order 1234 has shipped.' },
          ],
          metadata: { modelId: 'gpt-test', provider: 'openai' },
        },
      },
    ],
    requestContext: { tenantId: 'acme', user: { plan: 'pro' } },
    metadata: { tenantId: 'acme', environment: 'production', tags: ['support'], region: 'eu' },
    usage: { inputTokens: 120, outputTokens: 40, totalTokens: 160 },
    durationMs: 4000,
  };
}

const scoreBase = {
  schemaVersion: 1 as const,
  scoreId: '0b8f5c1e-2d3a-8c4b-9e6f-112233445566',
  runId: 'run-1',
  scorerId: 'completeness',
  entity: { type: 'agent' as const, id: 'support-agent' },
  steps: {},
  prompts: {},
  source: { topic: 'agent-runs', partition: 0, offset: '42' },
  scoredAt: '2025-03-01T10:00:06.000Z',
  durationMs: 12,
};

export function scoredRecord(): ScoreRecord & Record<string, unknown> {
  return { ...scoreBase, status: 'scored', score: 0.75, reason: 'covers most points' };
}

export function notScorableRecord(): ScoreRecord & Record<string, unknown> {
  return { ...scoreBase, status: 'not_scorable', notScorable: { step: 'preprocess', reason: 'no assistant output' } };
}

export function failedRecord(): ScoreRecord & Record<string, unknown> {
  return {
    ...scoreBase,
    status: 'failed',
    error: { name: 'APICallError', message: 'rate limited', code: '429', failedStep: 'analyze', completedSteps: ['preprocess'], retryable: true },
  };
}

export function decisionRecord(): DecisionRecord {
  return {
    schemaVersion: 1,
    runId: 'run-1',
    scorerId: 'toxicity',
    decision: 'skipped',
    reason: 'sampling',
    sampling: { rate: 0.1, bucket: 0.73 },
    source: { topic: 'agent-runs', partition: 2, offset: '7' },
    decidedAt: '2025-03-01T10:00:06.000Z',
  };
}

export function wireFeedback(): FeedbackRecordInput & Record<string, unknown> {
  return {
    schemaVersion: 1,
    feedbackId: 'fb-1',
    target: { type: 'run', runId: 'run-1' },
    source: 'end_user',
    submitter: { id: 'user-42' },
    name: 'thumbs',
    value: false,
    comment: 'It never said when the order ships.',
    submittedAt: '2025-03-01T10:01:00.000Z',
  };
}

export function agreementPair(): AgreementRecord & Record<string, unknown> {
  return {
    schemaVersion: 1,
    kind: 'pair',
    agreementId: 'ag-1',
    feedbackId: 'fb-1',
    scoreId: '0b8f5c1e-2d3a-8c4b-9e6f-112233445566',
    runId: 'run-1',
    scorerId: 'answer-relevancy',
    judge: { score: 0.9, label: 'pass' },
    human: { name: 'thumbs', value: false, label: 'fail', source: 'end_user', comment: 'off topic' },
    agree: false,
    measuredAt: '2025-03-01T10:01:01.000Z',
  };
}

export function agreementWindow(): AgreementRecord & Record<string, unknown> {
  return {
    schemaVersion: 1,
    kind: 'window',
    scorerId: 'answer-relevancy',
    scorerVersion: '2',
    windowStart: '2025-03-01T10:00:00.000Z',
    windowEnd: '2025-03-01T11:00:00.000Z',
    n: 50,
    agreements: 35,
    accuracy: 0.7,
    kappa: 0.4,
    confusion: { labels: ['pass', 'fail'], counts: [[20, 5], [10, 15]] },
    measuredAt: '2025-03-01T11:00:01.000Z',
  };
}
