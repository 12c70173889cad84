# Haystack's Agent on OpenAIChatGenerator, traced by openinference-instrumentation-haystack as its
# README and agent example show. The instrumentor wraps the component classes registered when it
# runs, so Haystack's components are imported first (as the example does); an Agent run outside a
# Pipeline is traced through them.
from common import API_KEY, INSTRUCTIONS, MODEL, MODEL_BASE_URL, QUESTION, SESSION_ID, USER_ID, tracer_provider, weather
from haystack.components.agents import Agent
from haystack.components.generators.chat import OpenAIChatGenerator
from haystack.dataclasses import ChatMessage
from haystack.tools import tool
from haystack.utils import Secret
from openinference.instrumentation import using_attributes
from openinference.instrumentation.haystack import HaystackInstrumentor

provider = tracer_provider()
HaystackInstrumentor().instrument(tracer_provider=provider)


@tool
def get_weather(city: str) -> str:
    """Get the current weather in a city."""
    return weather(city)


agent = Agent(
    chat_generator=OpenAIChatGenerator(model=MODEL, api_base_url=MODEL_BASE_URL, api_key=Secret.from_token(API_KEY)),
    tools=[get_weather],
    system_prompt=INSTRUCTIONS,
)
with using_attributes(session_id=SESSION_ID, user_id=USER_ID):
    result = agent.run(messages=[ChatMessage.from_user(QUESTION)])
print(result["last_message"].text)
provider.shutdown()
