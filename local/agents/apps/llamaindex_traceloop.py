# The same LlamaIndex FunctionAgent on OpenAILike, traced by OpenLLMetry (traceloop-sdk) as its docs
# show: Traceloop.init() instruments LlamaIndex (opentelemetry-instrumentation-llamaindex) and the
# OpenAI client OpenAILike calls the model with (opentelemetry-instrumentation-openai), and exports
# OTLP/HTTP to api_endpoint.
import asyncio
import os

from common import API_KEY, INSTRUCTIONS, MODEL, MODEL_BASE_URL, OTLP_ENDPOINT, QUESTION, SESSION_ID, USER_ID, weather
from traceloop.sdk import Traceloop

Traceloop.init(app_name=os.environ.get("OTEL_SERVICE_NAME", "llamaindex-traceloop"), api_endpoint=OTLP_ENDPOINT, disable_batch=True, telemetry_enabled=False)
Traceloop.set_association_properties({"session_id": SESSION_ID, "user_id": USER_ID})

from llama_index.core.agent.workflow import FunctionAgent  # noqa: E402
from llama_index.core.tools import FunctionTool  # noqa: E402
from llama_index.llms.openai_like import OpenAILike  # noqa: E402


def get_weather(city: str) -> str:
    """Get the current weather in a city."""
    return weather(city)


llm = OpenAILike(model=MODEL, api_base=MODEL_BASE_URL, api_key=API_KEY, is_chat_model=True, is_function_calling_model=True)
agent = FunctionAgent(name="weather_agent", tools=[FunctionTool.from_defaults(fn=get_weather)], llm=llm, system_prompt=INSTRUCTIONS)


async def main():
    response = await agent.run(user_msg=QUESTION)
    print(response)


asyncio.run(main())
