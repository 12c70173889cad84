// `scorestream replay --config f.ts --from <time> [--to <time>] [--scorer id …] [--id name] [--judge-mode live|batch] [--dry-run]`:
// scores the runs of a time range again through the live pipeline, in a consumer group of its own
// (service/replay.ts), with a progress bar on stderr; Ctrl-C stops cleanly and the same command
// continues later — over the range it fixed when it first started, even with a relative time.
// --dry-run calls no judge and prints, per scorer, the eligible runs and the estimated judge
// calls, tokens and cost (service/replay-dry-run.ts). Times: ISO 8601, epoch milliseconds, or a
// duration ago (`90m`, `6h`, `2d`). --judge-mode batch sends the judge calls to the provider's batch
// API (docs/spend-and-replay.md, the batch tier); the replay then ends once its batches answered.
import { ConfigError } from '../../src/engine/config/config-error.ts';
import { JUDGE_MODES } from '../../src/engine/judge-batch/batch-schema.ts';
import { KafkaAccessError } from '../../kafka/kafka-access-error.ts';
import { dryRunReplay } from '../../service/replay-dry-run.ts';
import type { DryRunReport } from '../../service/replay-dry-run.ts';
import { startReplay } from '../../service/replay.ts';
import type { ReplayTime } from '../../service/replay-range.ts';
import { createLogger, flushLogger, loggerSettingsFromEnvironment } from '../../otel/logger.ts';
import { startTelemetry } from '../../otel/setup.ts';
import { traceOptionsFromEnvironment } from '../../otel/trace-options.ts';
import { evaluationLogOptions } from '../../otel/evaluation-logs.ts';
import { parseCommandArgs } from '../command-args.ts';
import { processRedaction } from '../config-redaction.ts';
import { loadCliConfig } from '../load-cli-config.ts';
import { progressWriter } from '../replay-progress.ts';

const usage =
  'usage: scorestream replay --config <file> --from <time> [--to <time>] [--scorer <id> ...] [--id <name>] [--judge-mode live|batch] [--dry-run]\n' +
  '  <time>: ISO 8601 (2026-12-01T09:00:00Z), epoch ms, or a duration ago (90m, 6h, 2d): resolved once, when the replay first starts\n' +
  '  --id: names the replay (default: from the times as written and the scorers); the same command or --id continues it\n' +
  "  --judge-mode batch: the replay's judge calls wait on the provider's batch API at the batch price (config judge.batch); default live";

const units: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * A time argument, or undefined when it is not one. A duration ago keeps its words as its name
 * (`10m ago`): the replay it starts is the same replay when the command runs again later.
 */
export function parseReplayTime(text: string, now: number): ReplayTime | undefined {
  const ago = /^(\d+(?:\.\d+)?)([smhd])$/.exec(text.trim());
  if (ago !== null) return { spec: `${ago[1]}${ago[2]} ago`, at: new Date(now - Number(ago[1]) * units[ago[2]!]!) };
  const at = /^\d{10,}$/.test(text.trim()) ? new Date(Number(text)) : new Date(Date.parse(text));
  return Number.isNaN(at.getTime()) ? undefined : { spec: at.toISOString(), at };
}

export function formatDryRunReport(report: DryRunReport): string {
  const money = (amount: number) => `${amount.toFixed(amount < 1 ? 4 : 2)} ${report.currency}`;
  const lines = [
    `dry run of ${report.range.id}: ${report.runs} runs in range (${report.range.partitions.map(({ partition, start, end }) => `p${partition} ${start}..${end}`).join(', ')}); no judge was called`,
    `${'scorer'.padEnd(28)} ${'eligible'.padStart(9)} ${'skipped'.padStart(8)} ${'calls'.padStart(7)} ${'in tokens'.padStart(11)} ${'out tokens'.padStart(11)} ${'est. cost'.padStart(14)}`,
  ];
  let cost = 0;
  for (const [scorerId, estimate] of report.byScorer) {
    cost += estimate.cost;
    lines.push(
      `${scorerId.padEnd(28)} ${String(estimate.eligible).padStart(9)} ${String(estimate.skipped).padStart(8)} ${String(estimate.judgeCalls).padStart(7)} ${String(estimate.inputTokens).padStart(11)} ${String(estimate.outputTokens).padStart(11)} ${money(estimate.cost).padStart(14)}`,
    );
  }
  lines.push(`total estimated cost ${money(cost)} (input from prompt length, output from maxOutputTokens or pricing.estimate.outputTokensPerCall; unpriced models count 0)`);
  return lines.join('\n');
}

export async function run(argv: string[]): Promise<number> {
  const args = parseCommandArgs(
    {
      args: argv,
      options: {
        config: { type: 'string', short: 'c' },
        from: { type: 'string' },
        to: { type: 'string' },
        scorer: { type: 'string', multiple: true },
        id: { type: 'string' },
        'dry-run': { type: 'boolean' },
        'judge-mode': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    },
    usage,
  );
  if ('exitCode' in args) return args.exitCode;
  const { values } = args;
  const now = Date.now();
  const from = values.from === undefined ? undefined : parseReplayTime(values.from, now);
  const to = values.to === undefined ? undefined : parseReplayTime(values.to, now);
  const judgeModeArg = values['judge-mode'];
  const judgeMode = JUDGE_MODES.find((mode) => mode === judgeModeArg);
  if (judgeModeArg !== undefined && judgeMode === undefined) {
    console.error(`--judge-mode must be ${JUDGE_MODES.map((mode) => `'${mode}'`).join(' or ')}, got '${judgeModeArg.slice(0, 40)}'\n${usage}`);
    return 2;
  }
  if (values.config === undefined || from === undefined || (values.to !== undefined && to === undefined)) {
    console.error(`${values.config === undefined ? '--config is required' : from === undefined ? `--from is required and must be a time, got ${values.from ?? 'nothing'}` : `--to must be a time, got ${values.to}`}\n${usage}`);
    return 2;
  }
  const redaction = processRedaction();
  const logger = createLogger({ ...loggerSettingsFromEnvironment(process.env), redact: redaction.redact });
  const telemetry = values['dry-run'] === true ? undefined : await startTelemetry(process.env, { logger, redact: redaction.redact });
  try {
    const config = await loadCliConfig(values.config, logger);
    if (config === undefined) return 2;
    redaction.use(config);
    const progress = progressWriter();
    const replayOptions = { config, logger, from, ...(to === undefined ? {} : { to }), ...(values.scorer === undefined ? {} : { scorers: values.scorer }), ...(values.id === undefined ? {} : { id: values.id }), ...(judgeMode === undefined ? {} : { judgeMode }), onProgress: progress.update };
    try {
      if (values['dry-run'] === true) {
        const report = await dryRunReplay(replayOptions);
        progress.end();
        console.log(formatDryRunReport(report));
        return 0;
      }
      const replay = await startReplay({ ...replayOptions, ...traceOptionsFromEnvironment(process.env), ...evaluationLogOptions(telemetry, process.env) });
      const onSignal = () => {
        process.stderr.write('\nstopping: finishing in-flight runs; run the same command again to continue\n');
        void replay.stop();
      };
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
      const outcome = await replay.outcome;
      progress.end();
      const totals = outcome.stats?.totals();
      console.log(
        `${replay.range.id}: ${outcome.finished ? 'finished' : 'stopped'} at ${outcome.progress.done}/${outcome.progress.total} runs` +
          (totals === undefined ? ' (nothing left to do)' : `; this run: scored ${totals.scored}, not scorable ${totals.notScorable}, failed ${totals.failed}, skipped ${totals.skipped}`),
      );
      return outcome.finished ? 0 : 130;
    } catch (error) {
      // What to fix is the last thing printed, after every line logged on the way.
      await flushLogger(logger);
      if (error instanceof ConfigError) {
        console.error(error.message);
        return 2;
      }
      // TLS, SASL or an ACL refused: what to fix, exit 2, nothing secret (as `scorestream start`).
      if (KafkaAccessError.isInstance(error)) {
        progress.end();
        console.error(`scorestream: ${error.message}`);
        return 2;
      }
      throw error;
    }
  } finally {
    await telemetry?.shutdown();
  }
}
