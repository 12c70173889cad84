// Installing and running a framework agent fail with errors that say what to do: a Python without
// venv, an app that exits non-zero (its last lines in the message); a ready folder is not installed again.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureFrameworkEnv, frameworkEnvDirectory, FrameworkInstallError } from '../../../../local/agents/framework-env.ts';
import type { FrameworkAgent } from '../../../../local/agents/frameworks.ts';
import { FRAMEWORK_AGENTS, unpinned } from '../../../../local/agents/frameworks.ts';
import { FrameworkAgentError, runFrameworkAgent } from '../../../../local/agents/run-framework-agent.ts';

let cache: string;
beforeEach(async () => {
  cache = await mkdtemp(join(tmpdir(), 'framework-env-'));
});
afterEach(() => rm(cache, { recursive: true, force: true }));

const python: FrameworkAgent = { id: 'fake-python', title: 'a fake Python framework', language: 'python', packages: ['nothing==1.0'], app: 'nothing.py', conventions: 'GenAI' };
const node: FrameworkAgent = { id: 'fake-node', title: 'a fake JS framework', language: 'node', packages: ['nothing@1.0.0'], app: 'common.mjs', conventions: 'GenAI' };

describe('framework environments', () => {
  it('pins every package of every framework, and --current drops exactly the versions', () => {
    for (const framework of FRAMEWORK_AGENTS) for (const specifier of framework.packages) expect(specifier).toMatch(/(==|@)\d/);
    expect(unpinned(['a[x,y]==1.2', '@scope/b@3.4.5', 'c@1'])).toEqual(['a[x,y]', '@scope/b', 'c']);
  });

  it('says to install venv when the Python cannot make one', async () => {
    const environment = { XDG_CACHE_HOME: cache, SCORESTREAM_PYTHON: join(cache, 'no-such-python') };
    const attempt = ensureFrameworkEnv(python, { environment });
    await expect(attempt).rejects.toBeInstanceOf(FrameworkInstallError);
    await expect(attempt).rejects.toThrow(/python3-venv/);
  });

  it('uses a ready folder as it is, and reports an app that exits non-zero with its last lines', async () => {
    const environment = { XDG_CACHE_HOME: cache };
    const directory = frameworkEnvDirectory(node, { environment });
    await mkdir(directory, { recursive: true });
    await writeFile(join(directory, '.ready'), 'nothing@1.0.0\n');
    const env = await ensureFrameworkEnv(node, { environment });
    expect(env.installed).toBe('nothing@1.0.0\n');
    // common.mjs imports the OTel SDK, which this folder does not have: the app fails, and says so.
    const attempt = runFrameworkAgent(node, { modelBaseURL: 'http://127.0.0.1:9/v1', tracesUrl: 'http://127.0.0.1:9/v1/traces' }, { environment });
    await expect(attempt).rejects.toBeInstanceOf(FrameworkAgentError);
    await expect(attempt).rejects.toThrow(/the a fake JS framework agent exited with 1:[\s\S]*@opentelemetry/);
  });
});
