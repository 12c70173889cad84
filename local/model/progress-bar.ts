// A one-line progress bar on a terminal (redrawn in place), or plain lines every 10% elsewhere,
// so CI logs stay short. `done` ends the line.
export type ProgressBar = { update(done: number, total: number, label: string): void; finish(label: string): void };

export function createProgressBar(stream: NodeJS.WriteStream = process.stderr, width = 30): ProgressBar {
  let lastDecile = -1;
  const render = (done: number, total: number, label: string): string => {
    const fraction = total > 0 ? Math.min(1, done / total) : 0;
    const filled = Math.round(fraction * width);
    return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${(fraction * 100).toFixed(0).padStart(3)}% ${label}`;
  };
  return {
    update(done, total, label) {
      if (stream.isTTY) {
        stream.write(`\r${render(done, total, label)}\x1b[K`);
        return;
      }
      const decile = total > 0 ? Math.floor((done / total) * 10) : 0;
      if (decile === lastDecile) return;
      lastDecile = decile;
      stream.write(`${render(done, total, label)}\n`);
    },
    finish(label) {
      stream.write(stream.isTTY ? `\r${label}\x1b[K\n` : `${label}\n`);
    },
  };
}
