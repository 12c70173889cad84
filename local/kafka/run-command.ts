// Runs an external program (java, mvn, docker) to completion and hands back its exit code and
// output, never throwing for a non-zero exit: callers decide what a failure means. A missing
// program comes back as `missing: true` so callers can say what to install.
import { spawn } from 'node:child_process';

export type CommandResult = { code: number | null; stdout: string; stderr: string; missing: boolean; timedOut: boolean };

export type RunCommandOptions = { timeoutMs?: number; cwd?: string; env?: NodeJS.ProcessEnv };

export function runCommand(command: string, args: string[], options: RunCommandOptions = {}): Promise<CommandResult> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            child.kill('SIGKILL');
          }, options.timeoutMs);
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve({ code: null, stdout, stderr: stderr + error.message, missing: error.code === 'ENOENT', timedOut });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, missing: false, timedOut });
    });
  });
}

/** The last `count` non-empty lines of some program output, for error messages. */
export function lastLines(text: string, count: number): string {
  return text
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line !== '')
    .slice(-count)
    .join('\n');
}
