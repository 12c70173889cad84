# Semantic Kernel: a ChatCompletionAgent on its OpenAI connector (a client of the OpenAI SDK aimed at
# the model server), with a WeatherPlugin and automatic function calling, traced by SK's own GenAI
# telemetry with sensitive diagnostics on (SEMANTICKERNEL_EXPERIMENTAL_GENAI_ENABLE_OTEL_DIAGNOSTICS_SENSITIVE,
# set by the runner). Its messages go out as log records through Python logging, so the OTel SDK
# is set up as SK's observability docs show: a logger provider with the OTLP/HTTP log exporter and
# a LoggingHandler on the root logger taking the records of `semantic_kernel` at INFO, and a tracer
# provider with the OTLP/HTTP span exporter -- both before SK is imported.
import asyncio
import logging
import warnings

from common import API_KEY, INSTRUCTIONS, MODEL, MODEL_BASE_URL, QUESTION, logger_provider, tracer_provider, weather

provider = tracer_provider()
logs = logger_provider()
with warnings.catch_warnings():
    # The SDK's LoggingHandler, which SK's docs use, warns that it moved to opentelemetry-instrumentation-logging.
    warnings.simplefilter("ignore", DeprecationWarning)
    from opentelemetry.sdk._logs import LoggingHandler

    handler = LoggingHandler(logger_provider=logs)
handler.addFilter(logging.Filter("semantic_kernel"))
logging.getLogger().addHandler(handler)
logging.getLogger().setLevel(logging.INFO)

from openai import AsyncOpenAI  # noqa: E402
from semantic_kernel.agents import ChatCompletionAgent  # noqa: E402
from semantic_kernel.connectors.ai import FunctionChoiceBehavior  # noqa: E402
from semantic_kernel.connectors.ai.open_ai import OpenAIChatCompletion  # noqa: E402
from semantic_kernel.functions import kernel_function  # noqa: E402


class WeatherPlugin:
    @kernel_function(description="Get the current weather in a city.")
    def get_weather(self, city: str) -> str:
        return weather(city)


agent = ChatCompletionAgent(
    service=OpenAIChatCompletion(ai_model_id=MODEL, async_client=AsyncOpenAI(base_url=MODEL_BASE_URL, api_key=API_KEY)),
    name="WeatherAgent",
    instructions=INSTRUCTIONS,
    plugins=[WeatherPlugin()],
    function_choice_behavior=FunctionChoiceBehavior.Auto(),
)


async def main() -> str:
    response = await agent.get_response(messages=QUESTION)
    return str(response.message.content)


print(asyncio.run(main()))
provider.shutdown()
logs.shutdown()
