// `scorestream start --config <file>`: runs the scoring service until SIGTERM/SIGINT.
// The config is validated (with the environment's overrides) before anything touches Kafka;
// a bad config prints every problem and exits 2, and so does a cluster refusing TLS, SASL or an
// ACL (kafka/kafka-preflight.ts). OpenTelemetry starts first (from the OTEL_*
// variables; not at all when every exporter is `none` or OTEL_SDK_DISABLED=true) and is flushed
// after the service stopped.
import { overTargetMessage, processMemoryTarget } from '../../service/memory-target.ts';
import { startService } from '../../service/start-service.ts';
import { createLogger, flushLogger, loggerSettingsFromEnvironment } from '../../otel/logger.ts';
import { startTelemetry } from '../../otel/setup.ts';
import { traceOptionsFromEnvironment } from '../../otel/trace-options.ts';
import { evaluationLogOptions } from '../../otel/evaluation-logs.ts';
import { processRedaction } from '../config-redaction.ts';
import { loadCliConfig } from '../load-cli-config.ts';
import { runUntilSignal } from '../run-until-signal.ts';
import { parseCommandArgs } from '../command-args.ts';

const usage = 'usage: scorestream start --config <scorestream.config.ts>';

export async function run(argv: string[]): Promise<number> {
  const args = parseCommandArgs({ args: argv, options: { config: { type: 'string', short: 'c' }, help: { type: 'boolean', short: 'h' } } }, usage);
  if ('exitCode' in args) return args.exitCode;
  const { values } = args;
  if (values.config === undefined) {
    console.error(`--config is required\n${usage}`);
    return 2;
  }
  // Log lines and spans are redacted from the first on (docs/data-handling.md).
  const redaction = processRedaction();
  const logger = createLogger({ ...loggerSettingsFromEnvironment(process.env), redact: redaction.redact });
  const telemetry = await startTelemetry(process.env, { logger, redact: redaction.redact });
  // The memory target the command line started (cli/main.ts) says when it cannot be held.
  const stopMemoryNotice = processMemoryTarget()?.onOverTarget((over) =>
    logger.warn({ rssMb: Math.round(over.rssBytes / 2 ** 20), memoryTargetMb: Math.round(over.targetBytes / 2 ** 20), heapGrowthPercent: over.growthPercent }, overTargetMessage(over)),
  );
  try {
    const config = await loadCliConfig(values.config, logger);
    if (config === undefined) return 2;
    redaction.use(config);
    // TLS, SASL or an ACL refused (or a PEM file unreadable) rejects here; cli/main.ts prints what
    // to fix and exits 2.
    const service = await startService({ config, logger, ...traceOptionsFromEnvironment(process.env), ...evaluationLogOptions(telemetry, process.env) });
    return await runUntilSignal(service, logger);
  } finally {
    stopMemoryNotice?.();
    await telemetry.shutdown();
    // A refused start rejects to cli/main.ts, which prints what to fix: after every logged line.
    await flushLogger(logger);
  }
}
