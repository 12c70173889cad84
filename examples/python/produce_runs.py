"""Publish agent runs to Scorestream from Python.

Each finished agent run becomes one AgentRunEvent v1 (docs/contracts.md): JSON, keyed by its
run id, with the run's W3C trace context in the `traceparent` header so the scores land inside
the agent's own trace. This example makes up a few runs; in an agent, build the event from the
run you just finished and take the trace and span ids from your OpenTelemetry span
(`span.get_span_context()`), or inject the header with `opentelemetry.propagate.inject`.

    pip install -r requirements.txt
    python produce_runs.py --brokers 127.0.0.1:39092 --topic agent-runs --count 3

Prints one JSON line per acknowledged run: {"runId": ..., "traceparent": ..., "partition": ...}.
Exits 1 if any run was not acknowledged.
"""

import argparse
import json
import os
import secrets
import sys
from datetime import datetime, timezone

from confluent_kafka import Producer


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def message(message_id: str, role: str, text: str, created_at: str) -> dict:
    """A message in Mastra's shape: role, and content format 2 with its parts."""
    return {
        "id": message_id,
        "role": role,
        "createdAt": created_at,
        "content": {"format": 2, "parts": [{"type": "text", "text": text}], "content": text},
    }


def run_event(run_id: str, question: str, answer: str, traceparent: str) -> dict:
    """One finished run as an AgentRunEvent v1 (the fields and their meaning: docs/contracts.md)."""
    at = now_iso()
    return {
        "schemaVersion": 1,
        "type": "agent.run.completed",
        "runId": run_id,
        "timestamp": at,
        "entity": {"type": "agent", "id": "python-support-agent", "name": "Python support agent"},
        "input": {
            "inputMessages": [message(f"{run_id}-user", "user", question, at)],
            "rememberedMessages": [],
            "systemMessages": [{"role": "system", "content": "You are a helpful support agent."}],
            "taggedSystemMessages": {},
        },
        "output": [message(f"{run_id}-assistant", "assistant", answer, at)],
        "requestContext": {"tenantId": "acme", "channel": "python-example"},
        "metadata": {"tenantId": "acme", "environment": "example", "tags": ["python"]},
        "usage": {"inputTokens": 42, "outputTokens": 17, "totalTokens": 59},
        "durationMs": 850,
        # The fallback for producers that cannot set headers; this one sets both.
        "trace": {"traceparent": traceparent},
    }


def new_traceparent() -> str:
    """A sampled W3C traceparent: version 00, a random trace id and span id, flags 01."""
    return f"00-{secrets.token_hex(16)}-{secrets.token_hex(8)}-01"


def main() -> int:
    parser = argparse.ArgumentParser(description="Publish agent runs to Scorestream's runs topic.")
    parser.add_argument("--brokers", default=os.environ.get("KAFKA_BROKERS", "127.0.0.1:39092"), help="bootstrap servers, comma-separated (default: $KAFKA_BROKERS)")
    parser.add_argument("--topic", default=os.environ.get("SCORESTREAM_TOPIC_RUNS", "agent-runs"))
    parser.add_argument("--count", type=int, default=3)
    parser.add_argument("--run-id-prefix", default="python-run-")
    args = parser.parse_args()

    producer = Producer({
        "bootstrap.servers": args.brokers,
        "client.id": "scorestream-python-example",
        # Every run once, in order per key, acknowledged by all in-sync replicas.
        "enable.idempotence": True,
        "acks": "all",
        # The same partition for a key as the Java client and Scorestream's own producers.
        "partitioner": "murmur2_random",
    })
    failures: list[str] = []
    traceparents: dict[str, str] = {}

    def delivered(error, record) -> None:
        # Called from poll() and flush() with the delivery report, which carries no headers.
        run_id = record.key().decode()
        if error is not None:
            failures.append(f"{run_id}: {error}")
            return
        print(json.dumps({"runId": run_id, "traceparent": traceparents[run_id], "partition": record.partition()}), flush=True)

    for index in range(args.count):
        run_id = f"{args.run_id_prefix}{index}"
        traceparent = new_traceparent()
        traceparents[run_id] = traceparent
        event = run_event(run_id, f"Where is my order {7700 + index}?", f"Order {7700 + index} shipped yesterday and arrives on Monday.", traceparent)
        producer.produce(
            args.topic,
            key=run_id,
            value=json.dumps(event),
            headers=[("traceparent", traceparent), ("content-type", "application/json")],
            on_delivery=delivered,
        )
        producer.poll(0)
    remaining = producer.flush(30)
    if remaining > 0:
        failures.append(f"{remaining} runs still unacknowledged after 30 s")
    for failure in failures:
        print(f"not published: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
