// The example deployment (examples/scorestream.config.ts, what `scorestream demo` runs) resolves
// with a judge model configured, and its task-completion judge escalates on the trajectory checks,
// which the config check orders before it. Loaded in a child Node process, as `scorestream demo`
// loads it: it imports the package by its name, which vitest's resolver does not follow.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const script = `
const { loadConfigFile } = await import(${JSON.stringify(`${root}service/load-config-file.ts`)});
const { resolveConfig } = await import(${JSON.stringify(`${root}src/engine/config/resolve-config.ts`)});
const config = resolveConfig(await loadConfigFile(${JSON.stringify(`${root}examples/scorestream.config.ts`)}), { environment: { KAFKA_BROKERS: 'localhost:9092' } });
console.log(JSON.stringify(config.scorers.map((binding) => ({ id: binding.scorerId, escalate: binding.escalate && { after: binding.escalate.after, sample: binding.escalate.sample } }))));
`;

describe('the example config', () => {
  it('binds the judges when a judge model is set, the task-completion judge escalated on the trajectory checks', () => {
    const output = execFileSync(process.execPath, ['--disable-warning=ExperimentalWarning', '--input-type=module', '-e', script], {
      env: { ...process.env, SCORESTREAM_JUDGE_BASE_URL: 'http://127.0.0.1:9/v1', SCORESTREAM_JUDGE_MODEL: 'judge-7b' },
      encoding: 'utf8',
    });
    const scorers = JSON.parse(output.trim().split('\n').at(-1)!) as { id: string; escalate?: { after: string[]; sample: number } }[];
    const taskCompletion = scorers.find((binding) => binding.id === 'task-completion');
    expect(taskCompletion?.escalate).toEqual({ sample: 0.05, after: ['unoffered-tool-calls', 'repeated-tool-calls', 'tool-error-recovery', 'step-budget'] });
    for (const id of taskCompletion!.escalate!.after) expect(scorers.map((binding) => binding.id)).toContain(id);
  });
});
