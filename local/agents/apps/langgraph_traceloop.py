# The same LangGraph create_react_agent, traced by OpenLLMetry (traceloop-sdk), as its docs show:
# Traceloop.init() instruments LangChain and OpenAI and exports OTLP/HTTP to api_endpoint.
import os

from common import API_KEY, INSTRUCTIONS, MODEL, MODEL_BASE_URL, OTLP_ENDPOINT, QUESTION, SESSION_ID, USER_ID, weather
from traceloop.sdk import Traceloop

Traceloop.init(app_name=os.environ.get("OTEL_SERVICE_NAME", "langgraph-traceloop"), api_endpoint=OTLP_ENDPOINT, disable_batch=True, telemetry_enabled=False)
Traceloop.set_association_properties({"session_id": SESSION_ID, "user_id": USER_ID})

from langchain_core.tools import tool  # noqa: E402
from langchain_openai import ChatOpenAI  # noqa: E402
from langgraph.prebuilt import create_react_agent  # noqa: E402


@tool
def get_weather(city: str) -> str:
    """Get the current weather in a city."""
    return weather(city)


agent = create_react_agent(ChatOpenAI(model=MODEL, base_url=MODEL_BASE_URL, api_key=API_KEY), [get_weather], prompt=INSTRUCTIONS)
result = agent.invoke({"messages": [{"role": "user", "content": QUESTION}]}, config={"configurable": {"thread_id": SESSION_ID}})
print(result["messages"][-1].content)
