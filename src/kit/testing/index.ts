// The `scorestream/testing` entry: helpers for testing scorers, kept out of the main entry so
// production code never imports them by accident. test/unit/src/index.test.ts pins its names.

// Agent runs and messages in Mastra's shape, as Mastra's scorer test utils build them.
export { createAgentTestRun, createTestMessage, createToolInvocation } from './agent-test-run.ts';
export type {
  AgentTestRun,
  CreateAgentTestRunOptions,
  CreateTestMessageOptions,
  CreateToolInvocationOptions,
  TestRequestContext,
} from './agent-test-run.ts';

// An LLM judge that answers from a script, fails or hangs on demand, and records its calls.
export { judgeReply, mockJudge, providerError } from './mock-judge.ts';
export type {
  MockJudge,
  MockJudgeAnswer,
  MockJudgeCall,
  MockJudgeOptions,
  MockJudgeReply,
  MockJudgeReplyOptions,
  MockJudgeSleep,
  MockJudgeUsage,
  ProviderErrorOptions,
} from './mock-judge.ts';
