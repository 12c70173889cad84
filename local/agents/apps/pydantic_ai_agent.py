# pydantic-ai with its built-in OpenTelemetry instrumentation (Agent.instrument_all()) on the
# global OTel SDK, as its docs show without Logfire.
from common import API_KEY, INSTRUCTIONS, MODEL, MODEL_BASE_URL, QUESTION, tracer_provider, weather

provider = tracer_provider()

from pydantic_ai import Agent  # noqa: E402
from pydantic_ai.models.openai import OpenAIChatModel  # noqa: E402
from pydantic_ai.providers.openai import OpenAIProvider  # noqa: E402

Agent.instrument_all()
agent = Agent(OpenAIChatModel(MODEL, provider=OpenAIProvider(base_url=MODEL_BASE_URL, api_key=API_KEY)), instructions=INSTRUCTIONS, name="weather_agent")


@agent.tool_plain
def get_weather(city: str) -> str:
    """Get the current weather in a city."""
    return weather(city)


print(agent.run_sync(QUESTION).output)
provider.shutdown()
