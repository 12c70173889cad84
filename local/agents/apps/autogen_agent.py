# AutoGen AgentChat's AssistantAgent on OpenAIChatCompletionClient, traced as AutoGen's tracing
# guide shows: AutoGen's built-in OpenTelemetry (create_agent / invoke_agent / execute_tool spans
# in the GenAI conventions, on the global tracer provider) and, since those spans carry no
# content, opentelemetry-instrumentation-openai (OpenLLMetry's, the one the guide installs) for
# the model calls. AutoGen's spans have no session or user id.
import asyncio

from common import API_KEY, INSTRUCTIONS, MODEL, MODEL_BASE_URL, QUESTION, tracer_provider, weather

provider = tracer_provider()

from opentelemetry.instrumentation.openai import OpenAIInstrumentor  # noqa: E402

OpenAIInstrumentor().instrument()

from autogen_agentchat.agents import AssistantAgent  # noqa: E402
from autogen_ext.models.openai import OpenAIChatCompletionClient  # noqa: E402


async def get_weather(city: str) -> str:
    """Get the current weather in a city."""
    return weather(city)


async def main():
    model_client = OpenAIChatCompletionClient(
        model=MODEL,
        base_url=MODEL_BASE_URL,
        api_key=API_KEY,
        model_info={"vision": False, "function_calling": True, "json_output": False, "family": "unknown", "structured_output": False},
    )
    # reflect_on_tool_use: the agent answers in its own words after the tool, as the other agents do.
    agent = AssistantAgent(name="weather_agent", model_client=model_client, tools=[get_weather], system_message=INSTRUCTIONS, reflect_on_tool_use=True)
    result = await agent.run(task=QUESTION)
    print(result.messages[-1].content)
    await model_client.close()


asyncio.run(main())
provider.shutdown()
