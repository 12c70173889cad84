// service/heap-growth.ts: the command line sets V8's heap growing factor as it starts, unless node
// was given its own. The effect is checked on a real V8: the same workload — a live set kept, and
// objects that survive scavenges, are promoted and die, as the runs in flight do — peaks at a
// smaller heap with the shipped factor than with V8's own.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { applyHeapGrowth, shippedHeapGrowingPercent } from '../../../service/heap-growth.ts';

const moduleUrl = new URL('../../../service/heap-growth.ts', import.meta.url).href;

const workload = [
  "import v8 from 'node:v8';",
  `import { applyHeapGrowth } from ${JSON.stringify(moduleUrl)};`,
  'const { percent } = applyHeapGrowth();',
  'const live = Array.from({ length: 300_000 }, (_, i) => ({ i, s: `live-${i}` }));',
  'const ring = new Array(100_000);',
  'let peak = 0;',
  'for (let i = 0; i < 6_000_000; i += 1) {',
  '  ring[i % ring.length] = { i, s: `x${i}`, a: [i, i + 1] };',
  '  if (i % 10_000 === 0) peak = Math.max(peak, v8.getHeapStatistics().used_heap_size);',
  '}',
  'console.log(JSON.stringify({ percent, peakMb: peak / 2 ** 20, live: live.length }));',
].join('\n');

function peakHeap(nodeFlags: string[]): { percent: number; peakMb: number } {
  const output = execFileSync(process.execPath, [...nodeFlags, '--max-semi-space-size=16', '--input-type=module', '-e', workload], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
  return JSON.parse(output.trim().split('\n').at(-1)!) as { percent: number; peakMb: number };
}

describe('applyHeapGrowth', { timeout: 60_000 }, () => {
  it("sets the shipped factor, or leaves node's own when it was started with one", () => {
    expect(applyHeapGrowth(['--heap-growing-percent=0'])).toEqual({ percent: 0, own: true });
    expect(applyHeapGrowth(['--max-semi-space-size=16', '--heap-growing-percent=300'])).toEqual({ percent: 300, own: true });
    expect(applyHeapGrowth(['--max-semi-space-size=16'])).toEqual({ percent: shippedHeapGrowingPercent, own: false });
  });

  it("keeps the old generation smaller than V8's own factor does under promoted garbage", () => {
    const shipped = peakHeap([]);
    const own = peakHeap(['--heap-growing-percent=0']);
    expect(shipped.percent).toBe(shippedHeapGrowingPercent);
    expect(own.percent).toBe(0);
    // Measured: 152 MB against 194 MB (a live set of about 30 MB). V8's own factor is lower on a
    // machine where collection is slow next to allocation, hence the margin.
    expect(shipped.peakMb).toBeLessThan(own.peakMb * 0.95);
  });
});
