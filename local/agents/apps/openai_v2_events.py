# The plain app of openai_v2.py with its content on the logs signal: the official GenAI
# instrumentation opentelemetry-instrumentation-openai-v2 with
# OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=EVENT_ONLY (and
# OTEL_SEMCONV_STABILITY_OPT_IN=gen_ai_latest_experimental, which its README says the mode needs;
# both set by the runner), so each model call's messages go out as a
# `gen_ai.client.inference.operation.details` log record in its span's context, through a logger
# provider with the OTLP/HTTP log exporter, handed to the instrumentor as its README shows.
import json

from common import API_KEY, INSTRUCTIONS, MODEL, MODEL_BASE_URL, QUESTION, logger_provider, tracer_provider, weather

provider = tracer_provider()
logs = logger_provider()

from opentelemetry import trace  # noqa: E402
from opentelemetry.instrumentation.openai_v2 import OpenAIInstrumentor  # noqa: E402

OpenAIInstrumentor().instrument(tracer_provider=provider, logger_provider=logs)

from openai import OpenAI  # noqa: E402

client = OpenAI(base_url=MODEL_BASE_URL, api_key=API_KEY)
TOOLS = [{"type": "function", "function": {"name": "get_weather", "description": "Get the current weather in a city.", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}]

with trace.get_tracer("weather-app").start_as_current_span("answer_question"):
    messages = [{"role": "system", "content": INSTRUCTIONS}, {"role": "user", "content": QUESTION}]
    while True:
        reply = client.chat.completions.create(model=MODEL, messages=messages, tools=TOOLS).choices[0].message
        if not reply.tool_calls:
            break
        messages.append(reply.model_dump(exclude_none=True))
        for call in reply.tool_calls:
            messages.append({"role": "tool", "tool_call_id": call.id, "content": weather(**json.loads(call.function.arguments))})
print(reply.content)
provider.shutdown()
logs.shutdown()
