# openai-agents (the OpenAI Agents SDK) traced by openinference-instrumentation-openai-agents, as
# its README shows; the SDK's default model API (Responses) against the scripted model server.
import asyncio

from common import INSTRUCTIONS, MODEL, QUESTION, SESSION_ID, USER_ID, tracer_provider, weather

provider = tracer_provider()

from openinference.instrumentation import using_attributes  # noqa: E402
from openinference.instrumentation.openai_agents import OpenAIAgentsInstrumentor  # noqa: E402

OpenAIAgentsInstrumentor().instrument(tracer_provider=provider)

from agents import Agent, Runner, function_tool  # noqa: E402


@function_tool
def get_weather(city: str) -> str:
    """Get the current weather in a city."""
    return weather(city)


agent = Agent(name="Weather agent", instructions=INSTRUCTIONS, tools=[get_weather], model=MODEL)


async def main():
    with using_attributes(session_id=SESSION_ID, user_id=USER_ID):
        result = await Runner.run(agent, QUESTION)
    print(result.final_output)


asyncio.run(main())
provider.shutdown()
