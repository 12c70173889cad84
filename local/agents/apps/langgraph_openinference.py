# LangGraph's create_react_agent with ChatOpenAI, traced by openinference-instrumentation-langchain
# as its README shows.
from common import API_KEY, INSTRUCTIONS, MODEL, MODEL_BASE_URL, QUESTION, SESSION_ID, USER_ID, tracer_provider, weather

provider = tracer_provider()

from openinference.instrumentation import using_attributes  # noqa: E402
from openinference.instrumentation.langchain import LangChainInstrumentor  # noqa: E402

LangChainInstrumentor().instrument(tracer_provider=provider)

from langchain_core.tools import tool  # noqa: E402
from langchain_openai import ChatOpenAI  # noqa: E402
from langgraph.prebuilt import create_react_agent  # noqa: E402


@tool
def get_weather(city: str) -> str:
    """Get the current weather in a city."""
    return weather(city)


agent = create_react_agent(ChatOpenAI(model=MODEL, base_url=MODEL_BASE_URL, api_key=API_KEY), [get_weather], prompt=INSTRUCTIONS)
with using_attributes(session_id=SESSION_ID, user_id=USER_ID):
    result = agent.invoke({"messages": [{"role": "user", "content": QUESTION}]}, config={"configurable": {"thread_id": SESSION_ID}})
print(result["messages"][-1].content)
provider.shutdown()
