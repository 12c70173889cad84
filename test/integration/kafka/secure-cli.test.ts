// `scorestream kafka start --secure` as a user runs it: a secured named broker in a temporary
// XDG_STATE_HOME, reused on a second start, whose role users hold exactly their ACLs — the
// producer user publishes runs with `produce`, the tail user may not — and whose stop --purge
// leaves no secret behind. Its certificates and passwords are never in stdout or stderr.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const cli = fileURLToPath(new URL('../../../cli/main.ts', import.meta.url));
let stateHome: string;

function scorestream(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', '--disable-warning=TimeoutNegativeWarning', cli, ...args], {
      env: { ...process.env, XDG_STATE_HOME: stateHome, KAFKA_BROKERS: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('scorestream kafka start --secure', () => {
  beforeAll(async () => {
    stateHome = await mkdtemp(join(tmpdir(), 'scorestream-state-'));
  });

  afterAll(async () => {
    await scorestream(['kafka', 'stop', '--secure', '--purge']);
    await rm(stateHome, { recursive: true, force: true });
  });

  it('starts a secured broker whose role users hold exactly their ACLs, and stops it without a trace', async () => {
    const started = await scorestream(['kafka', 'start', '--secure']);
    expect(started.code, started.stderr).toBe(0);
    const bootstrap = started.stdout.trim().split('\n').at(-1)!;
    expect(bootstrap).toMatch(/^127\.0\.0\.1:\d+$/);
    const directory = join(stateHome, 'scorestream', 'brokers', 'secure');
    const materials = JSON.parse(readFileSync(join(directory, 'tls', 'materials.json'), 'utf8')) as { caCertificate: string; users: Record<string, string> };
    for (const password of Object.values(materials.users)) expect(started.stdout + started.stderr).not.toContain(password);
    expect(started.stderr).toContain('KAFKA_SASL_USERNAME=scorestream');

    const again = await scorestream(['kafka', 'start', '--secure']);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('already running');
    expect(again.stdout.trim().split('\n').at(-1)).toBe(bootstrap);

    const as = (user: string) => ({
      KAFKA_BROKERS: bootstrap,
      KAFKA_SSL_CA_FILE: materials.caCertificate,
      KAFKA_SASL_MECHANISM: 'scram-sha-512',
      KAFKA_SASL_USERNAME: user,
      KAFKA_SASL_PASSWORD: materials.users[user]!,
    });
    const produced = await scorestream(['produce', '--sample', '--count', '5', '--seed', '1'], as('producer'));
    expect(produced.code, produced.stderr).toBe(0);
    expect(produced.stdout).toContain('sent 5 runs to agent-runs');
    const refused = await scorestream(['produce', '--sample', '--count', '5', '--seed', '1'], as('tail'));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("denied user 'tail' (SCRAM-SHA-512)");
    expect(refused.stderr).not.toContain(materials.users.tail);

    // replay may read the runs topic (so it exists for it) but not write it: refused at the publish.
    const notWritable = await scorestream(['produce', '--sample', '--count', '5', '--seed', '1'], as('replay'));
    expect(notWritable.code).toBe(2);
    expect(notWritable.stderr).toContain("it needs WRITE on topic 'agent-runs'");

    // The same name without --secure is refused, not silently restarted unsecured.
    const mixed = await scorestream(['kafka', 'start', '--name', 'secure']);
    expect(mixed.code).toBe(1);
    expect(mixed.stderr).toContain("The 'secure' broker was made secured: use another --name");

    const stopped = await scorestream(['kafka', 'stop', '--secure', '--purge']);
    expect(stopped.code).toBe(0);
    expect(existsSync(directory)).toBe(false);
  });
});
