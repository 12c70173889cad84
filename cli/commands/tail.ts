// `scorestream tail [--topic agent-scores] [--from-beginning] [--trace-url URL]`: prints score
// records as they arrive, one line each. Reads without committing (a throwaway group), so tailing
// never moves anyone's offsets.
import { randomUUID } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import { parseScoreRecord } from '../../src/contracts/parse.ts';
import { DEFAULT_TOPICS } from '../../src/config/defaults.ts';
import { resolveCliBrokers } from '../brokers.ts';
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
  const kafka = new Kafka({ clientId: 'scorestream-tail', brokers, logLevel: logLevel.NOTHING });
  const consumer = kafka.consumer({ groupId: `scorestream-tail-${randomUUID()}` });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: values['from-beginning'] ?? false });
  const traceUrl = values['trace-url'];
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
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await consumer.disconnect();
  return 0;
}
