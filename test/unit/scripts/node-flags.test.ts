// The service's Node flags live in scripts/node-flags (read by bin/scorestream and the pipeline
// benchmark); the Dockerfile cannot read files at run time, so it repeats them: keep them in step.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');

describe('shipped Node flags', () => {
  it('are the same in scripts/node-flags and the Dockerfile entrypoint', () => {
    const flags = read('scripts/node-flags').trim().split(/\s+/);
    expect(flags.length).toBeGreaterThan(0);
    const entrypoint = read('Dockerfile').split('\n').find((line) => line.startsWith('ENTRYPOINT'));
    for (const flag of flags) expect(entrypoint).toContain(`"${flag}"`);
    expect(read('bin/scorestream')).toContain('scripts/node-flags');
  });
});
