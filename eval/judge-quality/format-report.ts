// The judge-quality report as markdown (what `npm run eval:judges` prints) and as JSON (--json):
// the summary table per scorer, then each scorer's confusion counts. Pure text from figures.
import { describeThreshold, noLabel } from './agreement.ts';
import type { ScorerEvalReport } from './run-judge-eval.ts';

export type ReportHeader = {
  /** What was measured, e.g. `local:gemma3-270m` or `https://api.example/v1 · model-x`. */
  judge: string;
  /** ISO date-time of the run. */
  date: string;
  /** The command line that produced it. */
  command: string;
  /** Cases per scorer when --limit cut the set, for the reader to see it was cut. */
  limit?: number;
};

export function formatMarkdownReport(header: ReportHeader, reports: readonly ScorerEvalReport[]): string {
  const lines = [
    `Judge: ${header.judge} · ${header.date}${header.limit === undefined ? '' : ` · at most ${header.limit} cases per scorer`}`,
    `Command: \`${header.command}\``,
    '',
    '| scorer | label rule | n | accuracy | κ | failed | not scorable | judge calls | input tokens | output tokens | latency p50 | latency p95 | calls/s |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const report of reports) {
    const { agreement, cost } = report;
    lines.push(
      `| ${report.scorerId} | ${labelRule(report)} | ${agreement.n} | ${fixed(agreement.accuracy, 2)} | ${fixed(agreement.kappa, 2)} | ${agreement.failed} | ${agreement.notScorable} | ${cost.calls}${cost.failedCalls > 0 ? ` (${cost.failedCalls} failed)` : ''} | ${cost.inputTokens} | ${cost.outputTokens} | ${milliseconds(cost.latencyP50Ms)} | ${milliseconds(cost.latencyP95Ms)} | ${fixed(cost.callsPerSecond, 2)} |`,
    );
  }
  lines.push('', 'Confusion counts (rows: reference label; columns: the judge\'s label):', '');
  for (const report of reports) lines.push(...confusionTable(report), '');
  return lines.join('\n');
}

function labelRule(report: ScorerEvalReport): string {
  return report.threshold === undefined ? 'the selected choice' : describeThreshold(report.threshold);
}

function confusionTable(report: ScorerEvalReport): string[] {
  const columns = [...report.labels, noLabel.failed, noLabel.notScorable];
  const rows = [`**${report.scorerId}**`, '', `| reference \\ judge | ${columns.join(' | ')} |`, `| --- |${' ---: |'.repeat(columns.length)}`];
  for (const label of report.labels) {
    const counts = report.agreement.confusion[label] ?? {};
    rows.push(`| ${label} | ${columns.map((column) => counts[column] ?? 0).join(' | ')} |`);
  }
  return rows;
}

function fixed(value: number | undefined, digits: number): string {
  return value === undefined ? '—' : value.toFixed(digits);
}

function milliseconds(value: number | undefined): string {
  return value === undefined ? '—' : `${Math.round(value)} ms`;
}

/** The JSON report: the header, and per scorer its figures and every case's outcome. */
export function jsonReport(header: ReportHeader, reports: readonly ScorerEvalReport[]): string {
  return `${JSON.stringify({ ...header, scorers: reports }, null, 2)}\n`;
}
