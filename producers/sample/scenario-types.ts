// The shape of the sample catalogue: agents, the tasks their users bring, and for each task the
// right tool trajectory and answers of different quality, so scorers see a spread of scores.

export type ToolStep = {
  toolName: string;
  args: Record<string, unknown>;
  result: unknown;
  /** What the tool says when it fails in this task. */
  failure: string;
};

export type Scenario = {
  id: string;
  /** The user's message this turn. */
  question: string;
  /** Earlier turns of the conversation, oldest first: [user, assistant] pairs. */
  history: ReadonlyArray<readonly [string, string]>;
  /** The correct tool trajectory. */
  tools: readonly ToolStep[];
  /** A tool the agent sometimes calls by mistake. */
  wrongTool: ToolStep;
  answers: { complete: string; partial: string; offTopic: string };
  /** Terms a complete answer mentions (ground truth for keyword-style scorers). */
  keyTerms: readonly string[];
  reasoning: string;
};

export type AgentProfile = {
  entity: { type: 'agent' | 'workflow'; id: string; name: string; version: string };
  instructions: string;
  models: ReadonlyArray<{ modelId: string; provider: string }>;
  tags: readonly string[];
  /** Memory notes injected as tagged system messages. */
  memoryNotes: readonly string[];
  scenarios: readonly Scenario[];
};
