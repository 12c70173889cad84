# OpenLLMetry's own workflow decorators (@agent, @tool) around a hand-written tool loop on the
# OpenAI client, as traceloop-sdk's docs show; Traceloop.init() instruments the OpenAI client.
import json
import os

from common import API_KEY, INSTRUCTIONS, MODEL, MODEL_BASE_URL, OTLP_ENDPOINT, QUESTION, SESSION_ID, USER_ID, weather
from traceloop.sdk import Traceloop
from traceloop.sdk.decorators import agent, tool

Traceloop.init(app_name=os.environ.get("OTEL_SERVICE_NAME", "traceloop-agent"), api_endpoint=OTLP_ENDPOINT, disable_batch=True, telemetry_enabled=False)
Traceloop.set_association_properties({"session_id": SESSION_ID, "user_id": USER_ID})

from openai import OpenAI  # noqa: E402

client = OpenAI(base_url=MODEL_BASE_URL, api_key=API_KEY)
TOOLS = [{"type": "function", "function": {"name": "get_weather", "description": "Get the current weather in a city.", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}]


@tool(name="get_weather")
def get_weather(city: str) -> str:
    return weather(city)


@agent(name="weather_agent")
def answer(question: str) -> str:
    messages = [{"role": "system", "content": INSTRUCTIONS}, {"role": "user", "content": question}]
    while True:
        reply = client.chat.completions.create(model=MODEL, messages=messages, tools=TOOLS).choices[0].message
        if not reply.tool_calls:
            return reply.content
        messages.append(reply.model_dump(exclude_none=True))
        for call in reply.tool_calls:
            messages.append({"role": "tool", "tool_call_id": call.id, "content": get_weather(**json.loads(call.function.arguments))})


print(answer(QUESTION))
