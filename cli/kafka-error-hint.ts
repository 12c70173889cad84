// What to tell a user whose command failed because Kafka did not answer. The clients report that as
// a bare "Broker not connected", "Connection timeout", "Request timed out" or a retry count (kafkajs
// chains causes; @platformatic/kafka nests them in an AggregateError's `errors`), which says neither
// which setting is wrong nor what to check; the hint does.

/** kafkajs error classes that mean "could not reach a broker", matched by name: instanceof fails when two copies of kafkajs are installed. */
const unreachableErrorNames = new Set(['KafkaJSConnectionError', 'KafkaJSConnectionClosedError', 'KafkaJSRequestTimeoutError', 'KafkaJSBrokerNotFound']);
const unreachableMessage = /Broker not connected|Connection timeout|ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|Request (.* )?timed out|Connection ready timed out/;

/** The error and what caused it: its `cause` chain and, for an AggregateError, its `errors`, breadth first. */
function causes(error: unknown): unknown[] {
  const found: unknown[] = [];
  const pending = [error];
  while (pending.length > 0 && found.length < 50) {
    const current = pending.shift();
    if (current === undefined || current === null) continue;
    found.push(current);
    const { cause, errors } = current as { cause?: unknown; errors?: unknown };
    pending.push(cause, ...(Array.isArray(errors) ? errors : []));
  }
  return found;
}

/** A second line for the error message when `error` (or what caused it) says Kafka could not be reached; else undefined. */
export function kafkaUnreachableHint(error: unknown): string | undefined {
  const unreachable = causes(error).filter(
    (entry): entry is Error & { broker?: unknown } => entry instanceof Error && (unreachableErrorNames.has(entry.name) || unreachableMessage.test(entry.message)),
  );
  if (unreachable.length === 0) return undefined;
  // A retry error repeats its cause's message; the cause knows the broker.
  const broker = unreachable.map((entry) => entry.broker).find((value) => typeof value === 'string');
  const where = broker === undefined ? '' : ` (broker ${String(broker)})`;
  return (
    `Kafka did not answer${where}: check that the brokers given by --brokers, KAFKA_BROKERS or the config's kafka.brokers are running and reachable from here ` +
    '(`scorestream kafka status` shows the local one; `scorestream kafka start` starts it).'
  );
}
