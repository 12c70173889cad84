# smolagents' ToolCallingAgent on OpenAIServerModel, traced by openinference-instrumentation-smolagents
# as its README shows. The agent finishes by calling its built-in final_answer tool, which the
# scripted model server calls once get_weather's result is in.
from common import API_KEY, INSTRUCTIONS, MODEL, MODEL_BASE_URL, QUESTION, SESSION_ID, USER_ID, tracer_provider, weather

provider = tracer_provider()

from openinference.instrumentation import using_attributes  # noqa: E402
from openinference.instrumentation.smolagents import SmolagentsInstrumentor  # noqa: E402

SmolagentsInstrumentor().instrument(tracer_provider=provider)

from smolagents import OpenAIServerModel, ToolCallingAgent, tool  # noqa: E402


@tool
def get_weather(city: str) -> str:
    """Get the current weather in a city.

    Args:
        city: The city to get the weather for.
    """
    return weather(city)


model = OpenAIServerModel(model_id=MODEL, api_base=MODEL_BASE_URL, api_key=API_KEY)
agent = ToolCallingAgent(tools=[get_weather], model=model, instructions=INSTRUCTIONS, max_steps=3, name="weather_agent")
with using_attributes(session_id=SESSION_ID, user_id=USER_ID):
    print(agent.run(QUESTION))
provider.shutdown()
