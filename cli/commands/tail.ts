// `scorestream tail [--topic agent-scores] [--from-beginning] [--trace-url URL]`: prints score
// records as they arrive, one line each. Reads without committing (a throwaway group), so tailing
// never moves anyone's offsets. On a secured cluster it reads KAFKA_SSL* and KAFKA_SASL_* like the
// service, checks its access first, and exits 2 naming what to fix when refused.
import { randomUUID } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import { parseScoreRecord } from '../../src/kit/contracts/parse.ts';
import { DEFAULT_TOPICS } from '../../src/engine/config/defaults.ts';
import { resolveCliBrokers } from '../brokers.ts';
import { kafkaSecurityFromEnvironment } from '../../kafka/kafka-security.ts';
import { TAIL_GROUP_PREFIX } from '../../kafka/acl-roles.ts';
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
  // TLS and SASL from the KAFKA_SSL* / KAFKA_SASL_* variables, as for the service.
  const { security, ...who } = kafkaSecurityFromEnvironment(process.env);
  const kafka = new Kafka({ clientId: 'scorestream-tail', brokers, logLevel: logLevel.NOTHING, ...security });
  const groupId = `${TAIL_GROUP_PREFIX}${randomUUID()}`;
  const access = { brokers, ...who, topics: [{ topic, operations: 'READ' }], group: TAIL_GROUP_PREFIX, groupIsPrefix: true };
  await kafkaPreflight(kafka, { tls: tlsOptions(security.ssl), existingTopics: [topic], group: groupId }, access);
  const consumer = kafka.consumer({ groupId });
  // Refusals after the pre-flight (joining the group, fetching) arrive as a crash kafkajs will not restart.
  const crashed = new Promise<unknown>((resolve) => {
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      if (!payload.restart) resolve(explainKafkaError(payload.error, access));
    });
  });
  const traceUrl = values['trace-url'];
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: values['from-beginning'] ?? false });
  await consumer.run({
    autoCommit: false,
    eachMessage: async ({ message }) => {
      if (message.value === null) return;
      if (values.json) {
        console.log(message.value.toString('utf8'));
        return;
      }
      let parsed;
      try {
        parsed = parseScoreRecord(JSON.parse(message.value.toString('utf8')));
      } catch {
        console.log(`(not JSON) ${message.value.toString('utf8').slice(0, 120)}`);
        return;
      }
      if (!parsed.success) {
        console.log(`(not a score record: ${parsed.problems[0]?.path} ${parsed.problems[0]?.message})`);
        return;
      }
      console.log(formatScoreLine(parsed.data, traceUrl === undefined ? {} : { traceUrl }));
    },
  });
  console.error(`tailing ${topic} on ${brokers.join(',')} (Ctrl-C to stop)`);
  const ended = await new Promise<{ error?: unknown }>((resolve) => {
    process.once('SIGINT', () => resolve({}));
    process.once('SIGTERM', () => resolve({}));
    void crashed.then((error) => resolve({ error }));
  });
  await consumer.disconnect();
  if (ended.error !== undefined) throw ended.error;
  return 0;
}
