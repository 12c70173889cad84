// Runs one framework agent's app (frameworks.ts, apps/) to completion against a model server and
// an OTLP/HTTP endpoint: the scripted model server's base URL, and either the capture's direct
// receiver or the project's Collector. The app exits after its tracer provider flushed, so its
// spans are on their way when this returns. Only loopback endpoints are handed over, and the
// variables that would make a framework phone home (its own telemetry, a vendor backend) are off.
import { lastLines, runCommand } from '../kafka/run-command.ts';
import { ensureFrameworkEnv } from './framework-env.ts';
import type { EnsureFrameworkOptions } from './framework-env.ts';
import type { FrameworkAgent } from './frameworks.ts';

export type AgentEndpoints = {
  /** The OpenAI base URL, e.g. http://127.0.0.1:PORT/v1. */
  modelBaseURL: string;
  /** The OTLP/HTTP traces URL, e.g. http://127.0.0.1:4318/v1/traces. */
  tracesUrl: string;
};

export class FrameworkAgentError extends Error {
  override readonly name = 'FrameworkAgentError';
}

export type AgentRunResult = { stdout: string; stderr: string; installed: string };

export async function runFrameworkAgent(framework: FrameworkAgent, endpoints: AgentEndpoints, options: EnsureFrameworkOptions & { timeoutMs?: number } = {}): Promise<AgentRunResult> {
  const env = await ensureFrameworkEnv(framework, options);
  const endpoint = new URL(endpoints.tracesUrl).origin;
  const result = await runCommand(env.command, env.args, {
    timeoutMs: options.timeoutMs ?? 120_000,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      LANG: 'C.UTF-8',
      OTEL_SERVICE_NAME: framework.id,
      SCRIPTED_MODEL_BASE_URL: endpoints.modelBaseURL,
      OTLP_TRACES_URL: endpoints.tracesUrl,
      // For the apps that export log-based events (their LoggerProvider's OTLP/HTTP log exporter).
      OTLP_LOGS_URL: `${endpoint}/v1/logs`,
      OTLP_ENDPOINT: endpoint,
      OPENAI_API_KEY: 'sk-scripted',
      OPENAI_BASE_URL: endpoints.modelBaseURL,
      // Traces only, to the endpoint given; no metrics or logs exporters reaching for a default.
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_METRICS_EXPORTER: 'none',
      OTEL_LOGS_EXPORTER: 'none',
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: endpoints.tracesUrl,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
      // Frameworks' own usage telemetry and vendor backends stay off.
      MASTRA_TELEMETRY_DISABLED: '1',
      TRACELOOP_TELEMETRY: 'false',
      OPENAI_AGENTS_DISABLE_TRACING: '0',
      LANGCHAIN_TRACING_V2: 'false',
      LANGSMITH_TRACING: 'false',
      PYTHONUNBUFFERED: '1',
      PYTHONDONTWRITEBYTECODE: '1',
      ...framework.env,
    },
  });
  if (result.code !== 0) {
    throw new FrameworkAgentError(`the ${framework.title} agent ${result.timedOut ? 'timed out' : `exited with ${result.code}`}:\n${lastLines(result.stderr || result.stdout, 25)}`);
  }
  return { stdout: result.stdout, stderr: result.stderr, installed: env.installed };
}
