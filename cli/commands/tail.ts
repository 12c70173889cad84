// `scorestream tail [--topic agent-scores] [--from-beginning] [--trace-url URL]`: prints score
// records as they arrive, one line each. Reads group-less and commits nothing, so tailing never
// moves anyone's offsets. On a secured cluster it reads KAFKA_SSL* and KAFKA_SASL_* like the
// service, checks its access first, and exits 2 naming what to fix when refused.
import { parseScoreRecord } from '../../src/kit/contracts/parse.ts';
import { DEFAULT_TOPICS } from '../../src/engine/config/defaults.ts';
import { resolveCliBrokers } from '../brokers.ts';
import { kafkaSecurityFromEnvironment } from '../../kafka/kafka-security.ts';
import { createKafkaEdge } from '../../kafka/kafka-edge.ts';
import type { RangeRead } from '../../kafka/read-range.ts';
import { tlsOptions } from '../../kafka/service-access.ts';
import { explainKafkaError, kafkaPreflight } from '../../kafka/kafka-preflight.ts';
import { formatScoreLine } from '../format-record.ts';
import { parseCommandArgs } from '../command-args.ts';

const usage = 'usage: scorestream tail [--topic agent-scores] [--from-beginning] [--trace-url http://localhost:16686/trace/{traceId}] [--brokers host:port] [--json]';

export async function run(argv: string[]): Promise<number> {
  const args = parseCommandArgs(
    {
      args: argv,
      options: {
        topic: { type: 'string' },
        'from-beginning': { type: 'boolean' },
        'trace-url': { type: 'string' },
        brokers: { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    },
    usage,
  );
  if ('exitCode' in args) return args.exitCode;
  const { values } = args;
  const brokers = await resolveCliBrokers({ brokers: values.brokers });
  const topic = values.topic ?? process.env.SCORESTREAM_TOPIC_RESULTS ?? DEFAULT_TOPICS.results;
  // TLS and SASL from the KAFKA_SSL* / KAFKA_SASL_* variables, as for the service. Read group-less:
  // tailing moves nobody's offsets and needs no group (nor a group ACL).
  const { settings, security, ...who } = kafkaSecurityFromEnvironment(process.env);
  const edge = createKafkaEdge({ clientId: 'scorestream-tail', brokers, ...settings }, { log: { warn: console.error, info: console.error } });
  const access = { brokers, ...who, topics: [{ topic, operations: 'READ' }] };
  const traceUrl = values['trace-url'];
  const print = (value: Buffer) => {
    if (values.json) {
      console.log(value.toString('utf8'));
      return;
    }
    let parsed;
    try {
      parsed = parseScoreRecord(JSON.parse(value.toString('utf8')));
    } catch {
      console.log(`(not JSON) ${value.toString('utf8').slice(0, 120)}`);
      return;
    }
    if (!parsed.success) {
      console.log(`(not a score record: ${parsed.problems[0]?.path} ${parsed.problems[0]?.message})`);
      return;
    }
    console.log(formatScoreLine(parsed.data, traceUrl === undefined ? {} : { traceUrl }));
  };
  let range: RangeRead;
  try {
    await kafkaPreflight(edge.connection, { tls: tlsOptions(security.ssl), existingTopics: [topic] }, access);
    range = edge.readRange({
      topics: [topic],
      from: values['from-beginning'] === true ? 'beginning' : { timestampMs: Date.now() },
      until: 'follow',
      onBatch: (_topic, _partition, messages) => {
        for (const message of messages) if (message.value !== null) print(message.value);
      },
    });
  } catch (error) {
    await edge.close();
    throw error;
  }
  console.error(`tailing ${topic} on ${brokers.join(',')} (Ctrl-C to stop)`);
  const ended = await new Promise<{ error?: unknown }>((resolve) => {
    process.once('SIGINT', () => resolve({}));
    process.once('SIGTERM', () => resolve({}));
    // A refusal after the pre-flight (READ revoked while tailing) ends the read: told as what to grant.
    range.done.then(
      () => resolve({}),
      (error: unknown) => resolve({ error: explainKafkaError(error, access) }),
    );
  });
  await range.stop();
  await edge.close();
  if (ended.error !== undefined) throw ended.error;
  return 0;
}
