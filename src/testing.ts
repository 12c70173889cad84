// The `scorestream/testing` entry: helpers for testing scorers (Mastra's scorer test utils),
// kept out of the main entry so production code never imports them by accident.
export { createAgentTestRun, createTestMessage, createToolInvocation } from './utils/testing.ts';
export type * from './utils/testing.ts';
