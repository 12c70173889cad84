# Google ADK: an LlmAgent on LiteLLM's OpenAI provider (LiteLlm, how ADK reaches a model that is not
# Gemini), run by an InMemoryRunner in a session of its in-memory session service, with ADK's own
# OpenTelemetry on the content setting the environment gives (frameworks.ts: unset, ADK's default,
# for google-adk-python; on for google-adk-content-python). Exported as ADK's docs set it up: the OTLP endpoints in the standard OTel variables, then
# google.adk.telemetry.setup.maybe_set_otel_providers(), which makes the tracer and the logger
# providers with the OTLP/HTTP exporters (ADK sends its GenAI events as log records).
import asyncio
import os

from common import API_KEY, INSTRUCTIONS, MODEL, MODEL_BASE_URL, OTLP_LOGS_URL, OTLP_TRACES_URL, QUESTION, SESSION_ID, USER_ID, weather

os.environ["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"] = OTLP_TRACES_URL
os.environ["OTEL_EXPORTER_OTLP_LOGS_ENDPOINT"] = OTLP_LOGS_URL
# Traces and logs only: with the base endpoint set, the setup would add a metrics exporter too.
os.environ.pop("OTEL_EXPORTER_OTLP_ENDPOINT", None)

from google.adk.telemetry.setup import maybe_set_otel_providers  # noqa: E402

maybe_set_otel_providers()

from google.adk.agents import LlmAgent  # noqa: E402
from google.adk.models.lite_llm import LiteLlm  # noqa: E402
from google.adk.runners import InMemoryRunner  # noqa: E402
from google.genai import types  # noqa: E402
from opentelemetry import _logs, trace  # noqa: E402


def get_weather(city: str) -> str:
    """Get the current weather in a city."""
    return weather(city)


agent = LlmAgent(
    name="weather_agent",
    model=LiteLlm(model="openai/" + MODEL, api_base=MODEL_BASE_URL, api_key=API_KEY),
    instruction=INSTRUCTIONS,
    tools=[get_weather],
)


async def main() -> str:
    runner = InMemoryRunner(agent=agent, app_name="weather_app")
    await runner.session_service.create_session(app_name="weather_app", user_id=USER_ID, session_id=SESSION_ID)
    answer = ""
    message = types.Content(role="user", parts=[types.Part(text=QUESTION)])
    async for event in runner.run_async(user_id=USER_ID, session_id=SESSION_ID, new_message=message):
        if event.is_final_response() and event.content and event.content.parts:
            answer = "".join(part.text or "" for part in event.content.parts)
    await runner.close()
    return answer


print(asyncio.run(main()))
trace.get_tracer_provider().shutdown()
_logs.get_logger_provider().shutdown()
