# The same CrewAI crew, traced by OpenLLMetry (traceloop-sdk) as its docs show: Traceloop.init()
# instruments CrewAI (opentelemetry-instrumentation-crewai) and the OpenAI client crewai 1.x calls
# the model with (opentelemetry-instrumentation-openai), and exports OTLP/HTTP to api_endpoint.
import os

from common import API_KEY, INSTRUCTIONS, MODEL, MODEL_BASE_URL, OTLP_ENDPOINT, QUESTION, SESSION_ID, USER_ID, weather
from traceloop.sdk import Traceloop

Traceloop.init(app_name=os.environ.get("OTEL_SERVICE_NAME", "crewai-traceloop"), api_endpoint=OTLP_ENDPOINT, disable_batch=True, telemetry_enabled=False)
Traceloop.set_association_properties({"session_id": SESSION_ID, "user_id": USER_ID})

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
print(crew.kickoff())
