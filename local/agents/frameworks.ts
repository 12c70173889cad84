// The real agent frameworks the OTLP input is tested against (docs/otlp.md, "Tested against"):
// for each, what to install (pinned to the versions the fixtures in test/fixtures/otlp/ were
// captured with; `capture.ts --current` installs the newest instead), the app in apps/ that runs
// one tool-calling agent with the framework's own OpenTelemetry set up as its docs show, and the
// conventions it emits. Python frameworks get a venv each (their OpenTelemetry pins differ), the
// JS ones an npm folder each, all cached outside the clone (framework-env.ts).

export type FrameworkAgent = {
  /** The fixture's name: test/fixtures/otlp/<id>.jsonl. */
  id: string;
  /** As the table and docs/otlp.md name it. */
  title: string;
  language: 'python' | 'node';
  /** Requirement specifiers: `name==version` (pip) or `name@version` (npm). */
  packages: readonly string[];
  /** The app under apps/. */
  app: string;
  /** Settings the framework's docs ask for, beyond the endpoints every app gets. */
  env?: Readonly<Record<string, string>>;
  conventions: 'GenAI' | 'OpenInference' | 'OpenLLMetry';
};

const PYTHON_OTEL = ['opentelemetry-sdk==1.45.2', 'opentelemetry-exporter-otlp-proto-http==1.45.2'];
/**
 * traceloop-sdk 0.62.4 names its instrumentations without versions, and two of them (milvus,
 * pinecone) at 0.62.x need a opentelemetry-semantic-conventions-ai the registry does not have:
 * left to itself pip backtracks for ever. So the family is pinned, those two at 0.60.0, with the
 * OTel SDK release whose contrib instrumentations exist (1.45.1 / 0.66b1).
 */
const TRACELOOP_FAMILY = ['agno', 'alephalpha', 'anthropic', 'bedrock', 'chromadb', 'cohere', 'crewai', 'google-generativeai', 'groq', 'haystack', 'lancedb', 'langchain', 'litellm', 'llamaindex', 'marqo', 'mcp', 'milvus', 'mistralai', 'ollama', 'openai', 'openai-agents', 'pinecone', 'qdrant', 'replicate', 'sagemaker', 'together', 'transformers', 'vertexai', 'voyageai', 'watsonx', 'weaviate', 'writer'];
const TRACELOOP = [
  'traceloop-sdk==0.62.4',
  ...TRACELOOP_FAMILY.map((name) => `opentelemetry-instrumentation-${name}==${name === 'milvus' || name === 'pinecone' ? '0.60.0' : '0.62.4'}`),
  'opentelemetry-semantic-conventions-ai==0.5.1',
  ...['sdk', 'api', 'exporter-otlp-proto-http', 'exporter-otlp-proto-grpc'].map((name) => `opentelemetry-${name}==1.45.1`),
  ...['semantic-conventions', 'instrumentation', 'instrumentation-logging', 'instrumentation-redis', 'instrumentation-requests', 'instrumentation-sqlalchemy', 'instrumentation-threading', 'instrumentation-urllib3'].map((name) => `opentelemetry-${name}==0.66b1`),
];
/** CrewAI's anonymous usage telemetry and its hosted (CrewAI AMP) tracing, off. */
const CREWAI_OFF = { CREWAI_DISABLE_TELEMETRY: 'true', CREWAI_TRACING_ENABLED: 'false', CREWAI_DISABLE_VERSION_CHECK: 'true' };
const NODE_OTEL = ['@opentelemetry/api@1.9.1', '@opentelemetry/sdk-trace-node@2.12.1', '@opentelemetry/exporter-trace-otlp-proto@0.223.1', '@opentelemetry/resources@2.12.1'];

// google-adk 2.13 wants opentelemetry-sdk <= 1.44, so not PYTHON_OTEL's 1.45 (the same packages,
// traces and logs exporters alike). Its `extensions` extra names litellm < 1.106.3, whose 1.106.2
// imports the `mcp` package it does not require as soon as tools are offered: litellm is pinned
// apart, at the release DSPy runs on, and openai below 3, as ADK's `openai` extra wants.
const GOOGLE_ADK = ['google-adk==2.13.0', 'litellm==1.110.2', 'openai==2.54.0', 'opentelemetry-sdk==1.44.0', 'opentelemetry-exporter-otlp-proto-http==1.44.0'];

export const FRAMEWORK_AGENTS: readonly FrameworkAgent[] = [
  {
    id: 'openai-agents-python',
    title: 'openai-agents (Python) + openinference-instrumentation-openai-agents',
    language: 'python',
    packages: ['openai-agents==0.24.0', 'openinference-instrumentation-openai-agents==2.6.0', 'openai==3.57.0', ...PYTHON_OTEL],
    app: 'openai_agents.py',
    conventions: 'OpenInference',
  },
  {
    id: 'openai-agents-js',
    title: '@openai/agents (JS) + @arizeai/openinference-instrumentation-openai-agents',
    language: 'node',
    packages: ['@openai/agents@0.20.0', '@arizeai/openinference-instrumentation-openai-agents@0.2.15', 'zod@4.6.7', ...NODE_OTEL],
    app: 'openai-agents.mjs',
    conventions: 'OpenInference',
  },
  {
    id: 'langgraph-openinference-python',
    title: 'LangGraph create_react_agent + openinference-instrumentation-langchain (Python)',
    language: 'python',
    packages: ['langgraph==1.2.24', 'langchain-openai==1.7.4', 'langchain-core==1.8.3', 'openinference-instrumentation-langchain==0.1.80', ...PYTHON_OTEL],
    app: 'langgraph_openinference.py',
    conventions: 'OpenInference',
  },
  {
    id: 'langchain-js',
    title: 'LangChain JS + LangGraph + @arizeai/openinference-instrumentation-langchain',
    language: 'node',
    packages: ['@langchain/langgraph@1.7.3', '@langchain/openai@1.6.0', '@langchain/core@1.4.0', '@arizeai/openinference-instrumentation-langchain@4.1.1', 'zod@4.6.7', ...NODE_OTEL],
    app: 'langchain.mjs',
    conventions: 'OpenInference',
  },
  {
    id: 'llamaindex-openinference-python',
    title: 'LlamaIndex FunctionAgent + openinference-instrumentation-llama-index',
    language: 'python',
    // llama-index-llms-openai 0.8 (under openai-like) wants openai < 3.
    packages: ['llama-index-core==0.14.25', 'llama-index-llms-openai-like==0.8.1', 'llama-index-llms-openai==0.8.3', 'openai==2.54.0', 'openinference-instrumentation-llama-index==4.6.1', ...PYTHON_OTEL],
    app: 'llamaindex_openinference.py',
    conventions: 'OpenInference',
  },
  {
    id: 'smolagents-python',
    title: 'smolagents ToolCallingAgent + openinference-instrumentation-smolagents',
    language: 'python',
    packages: ['smolagents[openai]==1.26.0', 'openinference-instrumentation-smolagents==0.1.43', 'openai==3.63.0', ...PYTHON_OTEL],
    app: 'smolagents_agent.py',
    conventions: 'OpenInference',
  },
  {
    id: 'dspy-python',
    title: 'DSPy ReAct + openinference-instrumentation-dspy',
    language: 'python',
    // DSPy's ReAct asks for its tool calls in ChatAdapter text fields, not as API tool calls (the
    // scripted model server's DSPy path). The runner's OPENAI_BASE_URL sends DSPy's calls through
    // LiteLLM, whose cost map stays the bundled one (no fetch).
    packages: ['dspy==3.4.1', 'litellm==1.110.2', 'openai==2.54.0', 'openinference-instrumentation-dspy==0.1.48', ...PYTHON_OTEL],
    app: 'dspy_agent.py',
    env: { LITELLM_LOCAL_MODEL_COST_MAP: 'True' },
    conventions: 'OpenInference',
  },
  {
    id: 'crewai-openinference-python',
    title: 'CrewAI crew + openinference-instrumentation-crewai',
    language: 'python',
    // crewai 1.x calls an openai/ model with a custom base URL through the OpenAI SDK itself (its
    // native provider), with native tool calls; openai < 3 is what it accepts.
    packages: ['crewai==1.15.30', 'openai==2.54.0', 'openinference-instrumentation-crewai==1.1.21', ...PYTHON_OTEL],
    app: 'crewai_openinference.py',
    // CrewAI's own usage telemetry and its hosted tracing stay off; OTEL_SDK_DISABLED, its other
    // opt-out, would switch off the app's tracer provider too.
    env: CREWAI_OFF,
    conventions: 'OpenInference',
  },
  {
    id: 'crewai-traceloop-python',
    title: 'CrewAI crew traced by OpenLLMetry (traceloop-sdk: opentelemetry-instrumentation-crewai + -openai)',
    language: 'python',
    packages: [...TRACELOOP, 'crewai==1.15.30', 'openai==2.54.0', 'httpx==0.28.1'],
    app: 'crewai_traceloop.py',
    // Traces only: traceloop-sdk would also export its instrumentations' metrics to the endpoint.
    env: { ...CREWAI_OFF, TRACELOOP_TELEMETRY: 'false', TRACELOOP_METRICS_ENABLED: 'false' },
    conventions: 'OpenLLMetry',
  },
  {
    id: 'llamaindex-traceloop-python',
    title: 'LlamaIndex FunctionAgent traced by OpenLLMetry (traceloop-sdk: opentelemetry-instrumentation-llamaindex + -openai)',
    language: 'python',
    // Traceloop.init() instruments LlamaIndex only when the `llama-index` distribution (the one its
    // docs install) is there, not llama-index-core alone; llama-index 0.14 wants
    // llama-index-llms-openai < 0.8, so openai-like 0.7 (what pip picks for both), and openai < 3.
    packages: [...TRACELOOP, 'llama-index==0.14.25', 'llama-index-core==0.14.25', 'llama-index-llms-openai-like==0.7.2', 'llama-index-llms-openai==0.7.10', 'openai==2.54.0', 'httpx==0.28.1'],
    app: 'llamaindex_traceloop.py',
    // Traces only: traceloop-sdk would also export its instrumentations' metrics to the endpoint.
    env: { TRACELOOP_TELEMETRY: 'false', TRACELOOP_METRICS_ENABLED: 'false' },
    conventions: 'OpenLLMetry',
  },
  {
    id: 'autogen-python',
    title: 'AutoGen AgentChat AssistantAgent (built-in OpenTelemetry) + opentelemetry-instrumentation-openai',
    language: 'python',
    // AutoGen's own spans (create_agent, invoke_agent, execute_tool) carry no content: its tracing
    // guide adds OpenLLMetry's OpenAI instrumentation for the model calls.
    packages: ['autogen-agentchat==0.7.5', 'autogen-ext[openai]==0.7.5', 'autogen-core==0.7.5', 'openai==3.63.0', 'opentelemetry-instrumentation-openai==0.62.4', ...PYTHON_OTEL],
    app: 'autogen_agent.py',
    conventions: 'GenAI',
  },
  {
    id: 'haystack-python',
    title: 'Haystack Agent + openinference-instrumentation-haystack',
    language: 'python',
    packages: ['haystack-ai==3.4.1', 'openai==3.63.0', 'openinference-instrumentation-haystack==0.1.46', ...PYTHON_OTEL],
    app: 'haystack_agent.py',
    // Haystack's anonymous usage telemetry (PostHog), off.
    env: { HAYSTACK_TELEMETRY_ENABLED: 'False' },
    conventions: 'OpenInference',
  },
  {
    id: 'traceloop-python',
    title: 'traceloop-sdk @agent / @tool (OpenLLMetry)',
    language: 'python',
    // traceloop-sdk imports httpx without naming it, and openai 3 no longer brings it.
    packages: [...TRACELOOP, 'openai==3.57.0', 'httpx==0.28.1'],
    app: 'traceloop_agent.py',
    env: { TRACELOOP_TELEMETRY: 'false' },
    conventions: 'OpenLLMetry',
  },
  {
    id: 'langgraph-traceloop-python',
    title: 'LangGraph create_react_agent traced by OpenLLMetry (traceloop-sdk)',
    language: 'python',
    packages: [...TRACELOOP, 'langgraph==1.2.24', 'langchain-openai==1.7.4', 'langchain-core==1.8.3', 'httpx==0.28.1'],
    app: 'langgraph_traceloop.py',
    env: { TRACELOOP_TELEMETRY: 'false' },
    conventions: 'OpenLLMetry',
  },
  {
    id: 'openai-v2-python',
    title: 'opentelemetry-instrumentation-openai-v2 (a plain app, no framework)',
    language: 'python',
    // 2.4b0 imports opentelemetry.util.genai.instruments, which util-genai 1.2b0 renamed; openai 3
    // no longer brings httpx, which it imports.
    packages: ['opentelemetry-instrumentation-openai-v2==2.4b0', 'opentelemetry-util-genai==1.1b0', 'openai==3.57.0', 'httpx==0.28.1', ...PYTHON_OTEL],
    app: 'openai_v2.py',
    // Content is opt-in (its README): without it the spans carry no message at all (the fixture
    // openai-v2-python-no-content.jsonl). SPAN_ONLY puts it on the spans; EVENT_ONLY would emit
    // log records, which a traces pipeline never carries.
    env: { OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'SPAN_ONLY' },
    conventions: 'GenAI',
  },
  {
    id: 'openai-v2-events-python',
    title: 'opentelemetry-instrumentation-openai-v2, content as log-based events (EVENT_ONLY)',
    language: 'python',
    // openai-v2-python's pins; the logger provider and the OTLP/HTTP log exporter are in PYTHON_OTEL's packages.
    packages: ['opentelemetry-instrumentation-openai-v2==2.4b0', 'opentelemetry-util-genai==1.1b0', 'openai==3.57.0', 'httpx==0.28.1', ...PYTHON_OTEL],
    app: 'openai_v2_events.py',
    // Its README: EVENT_ONLY puts the messages on a `gen_ai.client.inference.operation.details` log
    // record per call, none on the spans; the mode is one of the latest experimental conventions'.
    env: { OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'EVENT_ONLY', OTEL_SEMCONV_STABILITY_OPT_IN: 'gen_ai_latest_experimental' },
    conventions: 'GenAI',
  },
  {
    id: 'google-adk-python',
    title: 'Google ADK LlmAgent on LiteLlm (its own telemetry, default settings)',
    language: 'python',
    packages: GOOGLE_ADK,
    app: 'google_adk_agent.py',
    // Content capture stays at ADK's default (OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT
    // unset); LiteLLM's cost map stays the bundled one (no fetch).
    env: { LITELLM_LOCAL_MODEL_COST_MAP: 'True' },
    conventions: 'GenAI',
  },
  {
    id: 'google-adk-content-python',
    title: 'Google ADK LlmAgent on LiteLlm (its own telemetry, content capture on)',
    language: 'python',
    packages: GOOGLE_ADK,
    app: 'google_adk_agent.py',
    // Content capture on, as the GenAI instrumentations' variable turns it on: ADK then puts the
    // messages in its gen_ai.client.inference.operation.details log records.
    env: { LITELLM_LOCAL_MODEL_COST_MAP: 'True', OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true' },
    conventions: 'GenAI',
  },
  {
    id: 'semantic-kernel-python',
    title: 'Semantic Kernel ChatCompletionAgent (its GenAI telemetry, sensitive diagnostics on)',
    language: 'python',
    packages: ['semantic-kernel==1.45.0', 'openai==3.63.0', ...PYTHON_OTEL],
    app: 'semantic_kernel_agent.py',
    // Its observability docs: the messages are recorded only with the sensitive diagnostics on, as
    // log records (`gen_ai.user.message`, `gen_ai.choice`, … in `event.name`) through Python logging.
    env: { SEMANTICKERNEL_EXPERIMENTAL_GENAI_ENABLE_OTEL_DIAGNOSTICS_SENSITIVE: 'true' },
    conventions: 'GenAI',
  },
  {
    id: 'strands-python',
    title: 'strands-agents (default settings)',
    language: 'python',
    packages: ['strands-agents[openai,otel]==1.62.0'],
    app: 'strands_agent.py',
    conventions: 'GenAI',
  },
  {
    id: 'pydantic-ai-python',
    title: 'pydantic-ai (Agent.instrument_all())',
    language: 'python',
    packages: ['pydantic-ai-slim[openai]==2.68.0', ...PYTHON_OTEL],
    app: 'pydantic_ai_agent.py',
    conventions: 'GenAI',
  },
  {
    id: 'mastra-js',
    title: 'Mastra + @mastra/otel-exporter',
    language: 'node',
    packages: ['@mastra/core@1.71.0', '@mastra/observability@1.17.9', '@mastra/otel-exporter@1.4.0', 'zod@4.6.7', ...NODE_OTEL],
    app: 'mastra.mjs',
    conventions: 'GenAI',
  },
];

export function frameworkAgent(id: string): FrameworkAgent {
  const found = FRAMEWORK_AGENTS.find((framework) => framework.id === id);
  if (found === undefined) throw new Error(`no framework agent '${id}': one of ${FRAMEWORK_AGENTS.map((framework) => framework.id).join(', ')}`);
  return found;
}

/** The same specifiers without their versions: what `--current` installs. */
export function unpinned(packages: readonly string[]): string[] {
  return packages.map((specifier) => specifier.replace(/==.*$/, '').replace(/^(@?[^@]+)@.*$/, '$1'));
}

/**
 * The frameworks the integration test runs live, through the real Collector and broker
 * (test/integration/otlp/frameworks.test.ts): one per convention family that needs no other —
 * OpenInference on the OpenAI Responses API (Python), GenAI with event-based content (Python), and
 * a JS framework found by the root-span rule — then OpenInference's multi-part messages
 * (smolagents), a framework whose own spans carry no content (AutoGen), and the three shapes of
 * content on the logs signal: openai-v2's operation-details records, Semantic Kernel's
 * per-message records with JSON-string bodies, Google ADK's with structured attributes.
 * `.ci/run` installs exactly these (install.ts).
 */
export const LIVE_TEST_FRAMEWORKS = ['openai-agents-python', 'strands-python', 'langchain-js', 'smolagents-python', 'autogen-python', 'openai-v2-events-python', 'semantic-kernel-python', 'google-adk-content-python'] as const;
