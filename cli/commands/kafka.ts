// `scorestream kafka start|stop|status [--name NAME]`: the local single-node broker.
// `start` prints progress on stderr and the bootstrap address as the last line of stdout, so
// scripts can do `BROKERS=$(scorestream kafka start | tail -n1)`.
// Exit codes: 0 done / running, 1 failure, 2 usage error, 3 (status) not running.
import { parseArgs } from 'node:util';
import { defaultBrokerName, ensureLocalBroker, localBrokerStatus, stopLocalBroker } from '../../local/kafka/index.ts';

const usage = `usage: scorestream kafka <start|stop|status> [--name NAME] [--purge]

  start    start the local broker (or reuse the running one); prints its bootstrap address
  stop     stop it (--purge also deletes its data and logs)
  status   say whether it runs and where (exit 3 when it does not)

  --name NAME  a broker other than '${defaultBrokerName}' (several can run side by side)

Uses KAFKA_BROKERS when set (nothing is started); otherwise Docker when an engine answers,
else Apache Kafka's own jars on the local JVM (Java 17+; Maven once to download them).
SCORESTREAM_KAFKA_MODE=docker|jvm forces one.`;

export async function run(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { name: { type: 'string' }, purge: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    console.error(`scorestream kafka: ${error instanceof Error ? error.message : String(error)}\n\n${usage}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help === true) {
    console.log(usage);
    return 0;
  }
  const [action, ...extra] = positionals;
  if (action === undefined || extra.length > 0 || !['start', 'stop', 'status'].includes(action)) {
    console.error(`scorestream kafka: expected one of start, stop, status${action === undefined ? '' : `, not '${positionals.join(' ')}'`}\n\n${usage}`);
    return 2;
  }
  const name = values.name ?? defaultBrokerName;
  const progress = (line: string) => console.error(`kafka: ${line}`);

  if (action === 'start') {
    const started = Date.now();
    const handle = await ensureLocalBroker({ name, onProgress: progress });
    if (handle.mode !== 'env') {
      progress(`'${name}' broker ${handle.reused ? 'already running' : 'started'} (${handle.mode}, ${((Date.now() - started) / 1000).toFixed(1)} s); stop it with: scorestream kafka stop${name === defaultBrokerName ? '' : ` --name ${name}`}`);
    }
    console.log(handle.brokers.join(','));
    return 0;
  }

  if (action === 'stop') {
    const stopped = await stopLocalBroker(name, { purge: values.purge === true });
    console.error(`kafka: '${name}' broker ${stopped ? 'stopped' : 'was not running'}${values.purge === true ? '; its data and logs are deleted' : ''}`);
    return 0;
  }

  const status = await localBrokerStatus(name);
  if (process.env.KAFKA_BROKERS !== undefined && process.env.KAFKA_BROKERS.trim() !== '') {
    console.error(`kafka: note: KAFKA_BROKERS=${process.env.KAFKA_BROKERS} is set, so commands use that broker, not the local one`);
  }
  if (status.running) {
    const process = status.mode === 'jvm' ? `pid ${status.pid}` : `container ${status.container}`;
    console.log(`'${name}' broker running at ${status.brokers?.join(',')} (${status.mode}, ${process}); files in ${status.directory}`);
    return 0;
  }
  console.log(`'${name}' broker not running (${status.detail ?? 'stopped'}); files in ${status.directory}`);
  return 3;
}
