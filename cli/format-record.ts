// One readable line per score record, for `scorestream tail`.
import type { ScoreRecord } from '../src/kit/contracts/score-record.ts';
import { terminalSafe } from './terminal-text.ts';

export function formatScoreLine(record: ScoreRecord, options: { traceUrl?: string } = {}): string {
  const time = record.scoredAt.slice(11, 23);
  const outcome =
    record.status === 'scored'
      ? `score ${record.score.toFixed(3)}`
      : record.status === 'not_scorable'
        ? `not scorable at ${record.notScorable.step}${record.notScorable.reason ? ` (${record.notScorable.reason})` : ''}`
        : `FAILED at ${record.error.failedStep}: ${record.error.message.split('\n')[0]}`;
  const traceId = record.trace?.traceId;
  const traceText = traceId === undefined ? 'trace -' : options.traceUrl ? options.traceUrl.replaceAll('{traceId}', traceId) : `trace ${traceId}`;
  // Ids and reasons come from whoever wrote the records: printed as text, never as escape sequences.
  return terminalSafe(`${time}  ${record.runId.padEnd(24)} ${record.scorerId.padEnd(24)} ${outcome.padEnd(28)} ${traceText}`);
}
