// `scorestream monitor --config <file>`: the in-stream monitors of the config (docs/alerts.md),
// as their own role: one process reads the whole results topic and publishes breach and recovered
// notices to the alerts topic (and the webhook) until SIGTERM/SIGINT. Run one per results topic: a
// second would announce every notice twice (with the same alertIds). The config is validated
// first; no monitors is a configuration problem (exit 2).
import { createLogger, loggerSettingsFromEnvironment } from '../../otel/logger.ts';
import { startTelemetry } from '../../otel/setup.ts';
import { startMonitor } from '../../service/monitor/start-monitor.ts';
import { parseCommandArgs } from '../command-args.ts';
import { loadCliConfig } from '../load-cli-config.ts';

const usage = 'usage: scorestream monitor --config <scorestream.config.ts>';

export async function run(argv: string[]): Promise<number> {
  const args = parseCommandArgs({ args: argv, options: { config: { type: 'string', short: 'c' }, help: { type: 'boolean', short: 'h' } } }, usage);
  if ('exitCode' in args) return args.exitCode;
  if (args.values.config === undefined) {
    console.error(`--config is required\n${usage}`);
    return 2;
  }
  const logger = createLogger(loggerSettingsFromEnvironment(process.env));
  const telemetry = await startTelemetry(process.env, { logger });
  try {
    const config = await loadCliConfig(args.values.config, logger);
    if (config === undefined) return 2;
    const monitor = await startMonitor({ config, logger });
    await new Promise<void>((resolve) => {
      const stop = (signal: NodeJS.Signals) => {
        logger.info({ signal }, 'stopping the monitors');
        resolve();
      };
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
    });
    await monitor.stop();
    return 0;
  } finally {
    await telemetry.shutdown();
  }
}
