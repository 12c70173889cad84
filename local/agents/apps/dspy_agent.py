# DSPy's ReAct module on dspy.LM (an openai/ model at the scripted server's base URL, as DSPy's
# docs set up an OpenAI-compatible endpoint), traced by openinference-instrumentation-dspy as its
# README shows. ReAct writes its tool calls as ChatAdapter fields (next_tool_name, next_tool_args)
# and ends with the built-in `finish` tool, then an extract step that writes the answer. DSPy's
# response cache is off, so every run calls the model.
from common import API_KEY, INSTRUCTIONS, MODEL, MODEL_BASE_URL, QUESTION, SESSION_ID, USER_ID, tracer_provider, weather

provider = tracer_provider()

from openinference.instrumentation import using_attributes  # noqa: E402
from openinference.instrumentation.dspy import DSPyInstrumentor  # noqa: E402

DSPyInstrumentor().instrument(tracer_provider=provider)

import dspy  # noqa: E402


def get_weather(city: str) -> str:
    """Get the current weather in a city."""
    return weather(city)


dspy.configure_cache(enable_disk_cache=False, enable_memory_cache=False)
dspy.configure(lm=dspy.LM("openai/" + MODEL, api_base=MODEL_BASE_URL, api_key=API_KEY, cache=False))
# The instructions as DSPy takes them: the signature's (its docstring), which ReAct puts in its prompt.
agent = dspy.ReAct(dspy.Signature("question -> answer", INSTRUCTIONS), tools=[get_weather])
with using_attributes(session_id=SESSION_ID, user_id=USER_ID):
    print(agent(question=QUESTION).answer)
provider.shutdown()
