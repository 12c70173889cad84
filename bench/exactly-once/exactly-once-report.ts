// The exactly-once benchmark's report: every run of both layouts as a Markdown table row, the
// medians over rounds, and the ratio B / A — each round's own (its two runs seconds apart) and the
// median of those.
import { median } from '../pipeline/report.ts';
import type { LayoutRun } from './consume-through-sink.ts';
import type { ExactlyOnceOptions } from './exactly-once-options.ts';
import { layoutTitles } from './layouts.ts';
import type { LayoutName } from './layouts.ts';
import type { TimingSummary } from './transaction-timings.ts';

export type RunResult = { round: number; layout: LayoutName; run: LayoutRun; transactions: TimingSummary; retries: ReadonlyMap<string, number> };

const integer = (value: number) => Math.round(value).toLocaleString('en-US');
const ms = (value: number) => value.toFixed(1);
const ratio = (value: number) => `${value.toFixed(2)}×`;

type Row = { records: number; seconds: number; rate: number; summary: TimingSummary; retries?: ReadonlyMap<string, number> };

const retriesText = (retries: ReadonlyMap<string, number> | undefined) =>
  retries === undefined ? '' : retries.size === 0 ? 'none' : [...retries].map(([operation, count]) => `${operation} ${count}`).join(', ');

function cells(label: string, layout: LayoutName, row: Row): string {
  const { summary } = row;
  return `| ${label} | ${layoutTitles[layout]} | ${integer(row.rate)} | ${row.seconds.toFixed(2)} | ${integer(summary.transactions)} | ${summary.recordsPerTransaction.toFixed(1)} | ${summary.partitionsPerTransaction.toFixed(1)} | ${ms(summary.totalMs.p50)} | ${ms(summary.totalMs.p99)} | ${ms(summary.endMs.p50)} | ${ms(summary.endMs.p99)} | ${ms(summary.sendMsP50)} | ${ms(summary.offsetsMsP50)} | ${retriesText(row.retries)} |`;
}

function medianRow(results: readonly RunResult[]): Row {
  const of = (pick: (result: RunResult) => number) => median(results.map(pick));
  return {
    records: of((result) => result.run.records),
    seconds: of((result) => result.run.seconds),
    rate: of((result) => result.run.recordsPerSecond),
    summary: {
      transactions: of((result) => result.transactions.transactions),
      recordsPerTransaction: of((result) => result.transactions.recordsPerTransaction),
      partitionsPerTransaction: of((result) => result.transactions.partitionsPerTransaction),
      totalMs: { p50: of((result) => result.transactions.totalMs.p50), p99: of((result) => result.transactions.totalMs.p99) },
      endMs: { p50: of((result) => result.transactions.endMs.p50), p99: of((result) => result.transactions.endMs.p99) },
      sendMsP50: of((result) => result.transactions.sendMsP50),
      offsetsMsP50: of((result) => result.transactions.offsetsMsP50),
    },
  };
}

export function formatReport(options: ExactlyOnceOptions, machine: readonly string[], results: readonly RunResult[]): string[] {
  const ofLayout = (layout: LayoutName) => results.filter((result) => result.layout === layout);
  const lines = [
    '# exactly-once: a transactional producer per input partition (A) against one per instance under the group metadata, KIP-447 (B)',
    '',
    ...machine,
    `client:  @platformatic/kafka (the shipped client), both layouts`,
    `scenario: ${integer(options.records)} records on ${options.partitions} partitions, one output record each; commits every ${options.commitIntervalMs} ms, and at once when ${Math.floor(options.runsInFlight / 2)} of ${options.runsInFlight} run slots hold finished messages; fetches of ${integer(options.fetchBytesPerPartition)} bytes per partition at most; ${options.rounds} round(s), A B / B A alternating`,
    'records/s: first message consumed to last one committed. txn: beginTransaction to the commit answered; EndTxn: the commit request alone; send, offsets: the records\' and the offsets\' requests (p50); retries: the producers\' own, by operation.',
    '',
    '| round | layout | records/s | seconds | transactions | records / txn | partitions / txn | txn p50 ms | txn p99 ms | EndTxn p50 ms | EndTxn p99 ms | send p50 ms | offsets p50 ms | producers\' retries |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const result of results) lines.push(cells(String(result.round), result.layout, { records: result.run.records, seconds: result.run.seconds, rate: result.run.recordsPerSecond, summary: result.transactions, retries: result.retries }));
  for (const layout of ['A', 'B'] as const) lines.push(cells('**median**', layout, medianRow(ofLayout(layout))));
  const rounds = [...new Set(results.map((result) => result.round))];
  const roundRatios = rounds.flatMap((round) => {
    const a = results.find((result) => result.round === round && result.layout === 'A');
    const b = results.find((result) => result.round === round && result.layout === 'B');
    return a === undefined || b === undefined ? [] : [b.run.recordsPerSecond / a.run.recordsPerSecond];
  });
  const rateOf = (layout: LayoutName) => median(ofLayout(layout).map((result) => result.run.recordsPerSecond));
  lines.push('');
  lines.push(`records/s, B / A: rounds ${roundRatios.map(ratio).join(', ')}; median of the rounds' ratios ${ratio(median(roundRatios))}; ratio of the medians ${ratio(rateOf('B') / rateOf('A'))}`);
  const transactionsOf = (layout: LayoutName) => median(ofLayout(layout).map((result) => result.transactions.transactions));
  lines.push(`transactions, B / A: ${ratio(transactionsOf('B') / transactionsOf('A'))} (medians)`);
  return lines;
}
