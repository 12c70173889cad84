// The replay's progress line on stderr: a bar, runs done of the range, rate and ETA. Pure
// rendering (`renderReplayProgress`) apart from the writer, which redraws one line on a terminal
// and prints a line every few seconds otherwise.
export type ProgressSample = { at: number; done: number };

function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const whole = Math.round(seconds);
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const rest = whole % 60;
  return hours > 0 ? `${hours}h${String(minutes).padStart(2, '0')}m` : minutes > 0 ? `${minutes}m${String(rest).padStart(2, '0')}s` : `${rest}s`;
}

/** `[#####-----] 512/1000 runs  51%  120.3 runs/s  ETA 4s`; the rate is over the run so far. */
export function renderReplayProgress(progress: { done: number; total: number }, first: ProgressSample, now: ProgressSample, width = 30): string {
  const fraction = progress.total === 0 ? 1 : progress.done / progress.total;
  const filled = Math.round(fraction * width);
  const seconds = (now.at - first.at) / 1000;
  const rate = seconds > 0 ? (now.done - first.done) / seconds : 0;
  const eta = progress.done >= progress.total ? 'done' : `ETA ${rate > 0 ? duration((progress.total - progress.done) / rate) : '?'}`;
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${progress.done}/${progress.total} runs  ${Math.floor(fraction * 100)}%  ${rate.toFixed(1)} runs/s  ${eta}`;
}

export function progressWriter(out: NodeJS.WriteStream = process.stderr, now: () => number = Date.now): { update(progress: { done: number; total: number }): void; end(): void } {
  let first: ProgressSample | undefined;
  let lastPrinted = 0;
  let line = '';
  return {
    update(progress) {
      const sample = { at: now(), done: progress.done };
      first ??= sample;
      line = renderReplayProgress(progress, first, sample);
      if (out.isTTY === true) out.write(`\r\x1b[2K${line}`);
      else if (sample.at - lastPrinted >= 5000 || progress.done >= progress.total) {
        out.write(`${line}\n`);
        lastPrinted = sample.at;
      }
    },
    end() {
      if (out.isTTY === true && line !== '') out.write('\n');
    },
  };
}
