# What every Python agent of local/agents/ shares: the one task (a weather question answered with
# one tool call), its ids, and an OpenTelemetry SDK exporting OTLP/HTTP (protobuf) to the endpoint
# the runner passes (local/agents/run-framework-agent.ts) -- as each framework's docs set it up:
# traces, and logs for the apps whose content goes out as log-based events.
import os

QUESTION = "What is the weather in Paris?"
INSTRUCTIONS = "You are a weather agent. Use the get_weather tool, then answer in one sentence."
SESSION_ID = "session-42"
USER_ID = "user-7"
MODEL = os.environ.get("SCRIPTED_MODEL", "scripted-model")
MODEL_BASE_URL = os.environ["SCRIPTED_MODEL_BASE_URL"]
OTLP_TRACES_URL = os.environ["OTLP_TRACES_URL"]
OTLP_LOGS_URL = os.environ["OTLP_LOGS_URL"]
OTLP_ENDPOINT = os.environ["OTLP_ENDPOINT"]
API_KEY = os.environ.get("OPENAI_API_KEY", "sk-scripted")


def weather(city: str) -> str:
    return f"sunny, 21°C in {city}"


def tracer_provider():
    """The OTel SDK as the OpenTelemetry docs set it up: a batch processor and the OTLP/HTTP exporter."""
    from opentelemetry import trace
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor

    provider = TracerProvider(resource=Resource.create({"service.name": os.environ.get("OTEL_SERVICE_NAME", "agent")}))
    provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter(endpoint=OTLP_TRACES_URL)))
    trace.set_tracer_provider(provider)
    return provider


def logger_provider():
    """The OTel SDK's logs signal, set up alike: a batch processor and the OTLP/HTTP log exporter (for log-based events)."""
    from opentelemetry._logs import set_logger_provider
    from opentelemetry.exporter.otlp.proto.http._log_exporter import OTLPLogExporter
    from opentelemetry.sdk._logs import LoggerProvider
    from opentelemetry.sdk._logs.export import BatchLogRecordProcessor
    from opentelemetry.sdk.resources import Resource

    provider = LoggerProvider(resource=Resource.create({"service.name": os.environ.get("OTEL_SERVICE_NAME", "agent")}))
    provider.add_log_record_processor(BatchLogRecordProcessor(OTLPLogExporter(endpoint=OTLP_LOGS_URL)))
    set_logger_provider(provider)
    return provider
