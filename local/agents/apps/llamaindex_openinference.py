# LlamaIndex's FunctionAgent (llama_index.core.agent.workflow) on OpenAILike, traced by
# openinference-instrumentation-llama-index as its README shows.
import asyncio

from common import API_KEY, INSTRUCTIONS, MODEL, MODEL_BASE_URL, QUESTION, SESSION_ID, USER_ID, tracer_provider, weather

provider = tracer_provider()

from openinference.instrumentation import using_attributes  # noqa: E402
from openinference.instrumentation.llama_index import LlamaIndexInstrumentor  # noqa: E402

LlamaIndexInstrumentor().instrument(tracer_provider=provider)

from llama_index.core.agent.workflow import FunctionAgent  # noqa: E402
from llama_index.core.tools import FunctionTool  # noqa: E402
from llama_index.llms.openai_like import OpenAILike  # noqa: E402


def get_weather(city: str) -> str:
    """Get the current weather in a city."""
    return weather(city)


llm = OpenAILike(model=MODEL, api_base=MODEL_BASE_URL, api_key=API_KEY, is_chat_model=True, is_function_calling_model=True)
agent = FunctionAgent(name="weather_agent", tools=[FunctionTool.from_defaults(fn=get_weather)], llm=llm, system_prompt=INSTRUCTIONS)


async def main():
    with using_attributes(session_id=SESSION_ID, user_id=USER_ID):
        response = await agent.run(user_msg=QUESTION)
    print(response)


asyncio.run(main())
provider.shutdown()
