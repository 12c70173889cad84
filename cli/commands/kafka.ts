// `scorestream kafka start|stop|status [--name NAME]`: the local single-node broker.
// `--secure` starts a secured one (docs/security.md) and sets up its roles' topics and ACLs.
// `start` prints progress on stderr and the bootstrap address as the last line of stdout, so
// scripts can do `BROKERS=$(scorestream kafka start | tail -n1)`.
// Exit codes: 0 done / running, 1 failure, 2 usage error, 3 (status) not running.
import { parseArgs } from 'node:util';
import { defaultBrokerName, ensureLocalBroker, localBrokerStatus, readSecurityMaterials, stopLocalBroker } from '../../local/kafka/index.ts';
import { setUpSecureRoles } from '../secure-broker-setup.ts';

const SECURE_BROKER_NAME = 'secure';

const usage = `usage: scorestream kafka <start|stop|status> [--name NAME] [--secure] [--purge]

  start    start the local broker (or reuse the running one); prints its bootstrap address
  stop     stop it (--purge also deletes its data and logs)
  status   say whether it runs and where (exit 3 when it does not)

  --name NAME  a broker other than '${defaultBrokerName}' (several can run side by side)
  --secure     a secured broker (default name 'secure'): TLS with a throwaway CA, SASL users
               (SCRAM-SHA-512/256, PLAIN), mutual TLS, ACLs denying by default; each role's
               user gets exactly its ACLs (docs/security.md). Needs Java 17+ and openssl.

Uses KAFKA_BROKERS when set (nothing is started); otherwise Docker when an engine answers,
else Apache Kafka's own jars on the local JVM (Java 17+; Maven once to download them).
SCORESTREAM_KAFKA_MODE=docker|jvm forces one.`;

export async function run(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { name: { type: 'string' }, secure: { type: 'boolean' }, purge: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
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
  const secure = values.secure === true;
  const name = values.name ?? (secure ? SECURE_BROKER_NAME : defaultBrokerName);
  const progress = (line: string) => console.error(`kafka: ${line}`);

  if (action === 'start') {
    const started = Date.now();
    const handle = await ensureLocalBroker({ name, onProgress: progress, ...(secure ? { secure } : {}) });
    if (secure) {
      const directory = handle.directory ?? '';
      const materials = await readSecurityMaterials(directory);
      if (materials === undefined) throw new Error(`the secured broker's certificates and users are missing from ${directory}; run \`scorestream kafka stop --secure --purge\` and start it again`);
      const lines = await setUpSecureRoles({ brokers: handle.brokers, mtlsBrokers: handle.mtlsBrokers ?? [], directory, materials });
      for (const line of lines) progress(line);
    }
    if (handle.mode !== 'env') {
      progress(`'${name}' broker ${handle.reused ? 'already running' : 'started'} (${handle.mode}, ${((Date.now() - started) / 1000).toFixed(1)} s); stop it with: scorestream kafka stop${name === defaultBrokerName ? '' : secure && name === SECURE_BROKER_NAME ? ' --secure' : ` --name ${name}`}`);
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
