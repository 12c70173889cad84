// The demo's terminal view: a few lines redrawn every second from the service's counters.
// `renderLiveView` is pure (tests call it with made-up stats); `startLiveView` owns the timer.
import type { ServiceStats } from '../consumers/service-stats.ts';

export type LiveViewSample = { at: number; consumed: number };

function formatRate(value: number): string {
  return value >= 100 ? value.toFixed(0) : value.toFixed(1);
}

export function renderLiveView(stats: ServiceStats, previous: LiveViewSample, current: LiveViewSample, extra: string[] = []): string {
  const seconds = Math.max(0.001, (current.at - previous.at) / 1000);
  const rate = (current.consumed - previous.consumed) / seconds;
  const totals = stats.totals();
  const skips = [...stats.skipsByReason].map(([reason, count]) => `${reason} ${count}`).join(', ') || '0';
  const deadLetters = [...stats.deadLettersByCode].map(([code, count]) => `${code} ${count}`).join(', ');
  const lines = [
    `events/s ${formatRate(rate).padStart(7)}   consumed ${stats.consumed}   lag ${stats.totalLag()}   in flight ${stats.inFlight}   paused partitions ${stats.pausedPartitions.size}`,
    `scored ${totals.scored}   not scorable ${totals.notScorable}   failed ${totals.failed}   skipped ${totals.skipped} (${skips})   dead-lettered ${stats.deadLettered}${deadLetters ? ` (${deadLetters})` : ''}`,
    // Only once the retry topic saw any work, so a healthy judge's view stays as it was.
    ...(stats.retriesDeferred + stats.retriesAttempted === 0
      ? []
      : [`waiting for retry ${stats.retriesWaiting()}   deferred ${stats.retriesDeferred}   retried ${stats.retriesAttempted}   failed after retries ${stats.retriesExhausted}`]),
    // Only once the feedback join asked for a re-score (docs/feedback.md, re-scoring).
    ...(stats.rescores.size === 0 ? [] : [`re-scores on feedback ${[...stats.rescores].map(([outcome, count]) => `${outcome.replaceAll('_', ' ')} ${count}`).join(', ')}`]),
    ...(stats.budgetExhaustedByBudget.size === 0
      ? []
      : [`budget exhausted ${[...stats.budgetExhaustedByBudget].map(([budget, count]) => `${budget} ${count}`).join(', ')}   (skipped, recorded as budget_exhausted; re-score with scorestream replay)`]),
    '',
    `${'scorer'.padEnd(28)} ${'mean'.padStart(6)} ${'scored'.padStart(8)} ${'n/s'.padStart(6)} ${'failed'.padStart(7)}`,
  ];
  for (const [scorerId, tally] of [...stats.byScorer].sort(([a], [b]) => a.localeCompare(b))) {
    const mean = tally.scored === 0 ? '-' : (tally.scoreSum / tally.scored).toFixed(3);
    lines.push(`${scorerId.padEnd(28)} ${mean.padStart(6)} ${String(tally.scored).padStart(8)} ${String(tally.notScorable).padStart(6)} ${String(tally.failed).padStart(7)}`);
  }
  return [...lines, ...extra].join('\n');
}

export type LiveView = { stop(): void };

export function startLiveView(stats: ServiceStats, options: { intervalMs?: number; out?: NodeJS.WriteStream; header?: () => string[]; footer?: () => string[] } = {}): LiveView {
  const out = options.out ?? process.stdout;
  const interactive = out.isTTY === true;
  let previous: LiveViewSample = { at: Date.now(), consumed: stats.consumed };
  let drawnLines = 0;
  const draw = () => {
    const current = { at: Date.now(), consumed: stats.consumed };
    const text = [...(options.header?.() ?? []), renderLiveView(stats, previous, current), ...(options.footer?.() ?? [])].join('\n');
    previous = current;
    if (interactive) {
      // Move up over the previous frame and clear it, then draw the new one.
      if (drawnLines > 0) out.write(`\x1b[${drawnLines}A\x1b[0J`);
      out.write(`${text}\n`);
      drawnLines = text.split('\n').length;
    } else {
      out.write(`${text}\n\n`);
    }
  };
  const timer = setInterval(draw, options.intervalMs ?? (interactive ? 1000 : 5000));
  return {
    stop() {
      clearInterval(timer);
      draw();
    },
  };
}
