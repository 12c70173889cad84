import { describe, expect, it } from 'vitest';
import { renderMonitorLines } from '../../../cli/monitor-lines.ts';

describe('renderMonitorLines', () => {
  it("shows each monitor's state, value and samples, and the re-scores of its window apart", () => {
    const lines = renderMonitorLines([{ name: 'relevancy-pass-rate', phase: 'ok', value: 0.75, samples: 40, rescores: 3 }], []);
    expect(lines[1]).toMatch(/^monitor\s+state\s+value\s+samples\s+re-scores$/);
    expect(lines[2]).toMatch(/^relevancy-pass-rate\s+ok\s+0\.750\s+40\s+3$/);
  });

  it('says nothing without monitors', () => {
    expect(renderMonitorLines([], [])).toEqual([]);
  });
});
