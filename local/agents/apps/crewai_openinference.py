# A CrewAI crew (one agent, one task, one @tool) on crewai.LLM (an openai/ model at the scripted
# server's base URL, which crewai 1.x calls through the OpenAI SDK with native tool calls), traced
# by openinference-instrumentation-crewai as its README shows.
from common import API_KEY, INSTRUCTIONS, MODEL, MODEL_BASE_URL, QUESTION, SESSION_ID, USER_ID, tracer_provider, weather

provider = tracer_provider()

from openinference.instrumentation import using_attributes  # noqa: E402
from openinference.instrumentation.crewai import CrewAIInstrumentor  # noqa: E402

CrewAIInstrumentor().instrument(tracer_provider=provider)

from crewai import LLM, Agent, Crew, Task  # noqa: E402
from crewai.tools import tool  # noqa: E402


@tool("get_weather")
def get_weather(city: str) -> str:
    """Get the current weather in a city."""
    return weather(city)


llm = LLM(model="openai/" + MODEL, base_url=MODEL_BASE_URL, api_key=API_KEY)
agent = Agent(role="support agent", goal=INSTRUCTIONS, backstory=INSTRUCTIONS, tools=[get_weather], llm=llm, allow_delegation=False, max_iter=3)
task = Task(description=QUESTION, expected_output="one sentence", agent=agent)
crew = Crew(agents=[agent], tasks=[task])
with using_attributes(session_id=SESSION_ID, user_id=USER_ID):
    print(crew.kickoff())
provider.shutdown()
