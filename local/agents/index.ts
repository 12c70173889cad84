// Real agent frameworks with their own OpenTelemetry, for capturing fixtures and for the live
// OTLP integration test (docs/otlp.md, "Tested against the real frameworks").
export { FRAMEWORK_AGENTS, LIVE_TEST_FRAMEWORKS, frameworkAgent } from './frameworks.ts';
export type { FrameworkAgent } from './frameworks.ts';
export { ensureFrameworkEnv, frameworkEnvDirectory, FrameworkInstallError } from './framework-env.ts';
export { FrameworkAgentError, runFrameworkAgent } from './run-framework-agent.ts';
export { SCRIPTED_ANSWER, SCRIPTED_MODEL, SCRIPTED_TOOL_ARGUMENTS, startScriptedModelServer } from './scripted-model-server.ts';
export type { ScriptedModelServer } from './scripted-model-server.ts';
export { startOtlpReceiver } from './otlp-receiver.ts';
