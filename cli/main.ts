// The `scorestream` command line: picks a subcommand and hands it the remaining arguments.
// Each subcommand lives in cli/commands/<name>.ts and is loaded only when used, so
// `scorestream kafka status` does not pay for loading the scoring stack.
import { applyHeapGrowth } from '../service/heap-growth.ts';
import { applyMemoryTarget } from '../service/memory-target.ts';
import { ScorestreamError } from '../src/kit/errors.ts';
import { kafkaUnreachableHint } from './kafka-error-hint.ts';

type Command = { summary: string; load: () => Promise<{ run: (argv: string[]) => Promise<number> }> };

const commands: Record<string, Command> = {
  demo: { summary: 'local broker + sample traffic + the service with example scorers, live view', load: () => import('./commands/demo.ts') },
  start: { summary: 'run the scoring service: scorestream start --config scorestream.config.ts', load: () => import('./commands/start.ts') },
  monitor: { summary: 'in-stream monitors of the results topic: breach and recovered notices to the alerts topic (and a webhook)', load: () => import('./commands/monitor.ts') },
  replay: { summary: 'score a time range of the runs topic again: --config F --from T [--to T] [--scorer ID ...] [--dry-run]', load: () => import('./commands/replay.ts') },
  produce: { summary: 'publish agent runs: --sample --count N [--rate R] | --file runs.jsonl [--topic T]', load: () => import('./commands/produce.ts') },
  dashboard: { summary: 'live web dashboard of the scores [--since 6h] [--port 4680] [--trace-url jaeger|tempo|URL]', load: () => import('./commands/dashboard.ts') },
  otlp: { summary: 'what the OTLP input makes of traces: otlp inspect (--file spans.json | --topic otlp_spans)', load: () => import('./commands/otlp.ts') },
  agreement: { summary: 'the live feedback join: agreement of judges with people [--ttl 24h] [--window 1h]', load: () => import('./commands/agreement.ts') },
  tail: { summary: 'print score records as they arrive [--topic agent-scores] [--trace-url URL]', load: () => import('./commands/tail.ts') },
  kafka: { summary: 'local single-node broker: kafka start | stop | status', load: () => import('./commands/kafka.ts') },
  models: { summary: 'local judge models: models fetch [name] | list', load: () => import('./commands/models.ts') },
};

function usage(): string {
  const width = Math.max(...Object.keys(commands).map((name) => name.length));
  const lines = Object.entries(commands).map(([name, command]) => `  ${name.padEnd(width)}  ${command.summary}`);
  return ['usage: scorestream <command> [options]', '', 'commands:', ...lines].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    console.log(usage());
    return name === undefined ? 2 : 0;
  }
  const command = commands[name];
  if (command === undefined) {
    console.error(`scorestream: unknown command '${name}'\n\n${usage()}`);
    return 2;
  }
  const module = await command.load();
  return module.run(rest);
}

function startCommand(argv: string[]): Promise<number> {
  // Before anything allocates: V8's heap growth as the service ships it (service/heap-growth.ts),
  // lowered as the process nears its memory target (service/memory-target.ts).
  try {
    applyMemoryTarget(process.env, applyHeapGrowth());
  } catch (error) {
    console.error(`scorestream: ${error instanceof Error ? error.message : String(error)}`);
    return Promise.resolve(2);
  }
  return main(argv);
}

startCommand(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // Refused by Kafka (TLS, SASL, an ACL) or misconfigured: the message says what to fix; exit 2.
    if (ScorestreamError.isInstance(error) && (error.code === 'kafka_access' || error.code === 'invalid_config')) {
      console.error(`scorestream: ${error.message}`);
      process.exitCode = 2;
      return;
    }
    const hint = kafkaUnreachableHint(error);
    console.error(`scorestream: ${error instanceof Error ? error.message : String(error)}${hint === undefined ? '' : `\n${hint}`}`);
    if (process.env.SCORESTREAM_DEBUG) console.error(error);
    process.exitCode = 1;
  },
);
