# Strands Agents with its default telemetry settings (StrandsTelemetry().setup_otlp_exporter()),
# on its OpenAI model provider; session and user ids as trace attributes, as its docs show.
from common import API_KEY, INSTRUCTIONS, MODEL, MODEL_BASE_URL, OTLP_TRACES_URL, QUESTION, SESSION_ID, USER_ID, weather
from strands import Agent, tool
from strands.models.openai import OpenAIModel
from strands.telemetry import StrandsTelemetry

telemetry = StrandsTelemetry()
telemetry.setup_otlp_exporter(endpoint=OTLP_TRACES_URL)


@tool
def get_weather(city: str) -> str:
    """Get the current weather in a city."""
    return weather(city)


model = OpenAIModel(client_args={"api_key": API_KEY, "base_url": MODEL_BASE_URL}, model_id=MODEL)
agent = Agent(model=model, tools=[get_weather], system_prompt=INSTRUCTIONS, trace_attributes={"session.id": SESSION_ID, "user.id": USER_ID}, callback_handler=None)
print(agent(QUESTION))
telemetry.tracer_provider.shutdown()
