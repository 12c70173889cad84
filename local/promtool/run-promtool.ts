// Runs a built Prometheus tool (build-promtool.ts) with arguments, e.g. promtool `check rules a.yml`
// or `test rules t.test.yml`, amtool `check-config am.yml`, and hands back its exit code and
// output; a non-zero exit is the caller's to judge (a failing rule test is an answer, not an error).
import { runCommand } from '../kafka/run-command.ts';
import type { GoBuildOptions } from '../go/build-go-binary.ts';
import { ensurePrometheusTool } from './build-promtool.ts';
import type { PrometheusTool } from './build-promtool.ts';

export type ToolResult = { code: number | null; stdout: string; stderr: string; timedOut: boolean };

export async function runPrometheusTool(tool: PrometheusTool, args: string[], options: { cwd?: string; timeoutMs?: number; build?: GoBuildOptions } = {}): Promise<ToolResult> {
  const binary = await ensurePrometheusTool(tool, options.build);
  const result = await runCommand(binary, args, { cwd: options.cwd, timeoutMs: options.timeoutMs ?? 120_000 });
  return { code: result.code, stdout: result.stdout, stderr: result.stderr, timedOut: result.timedOut };
}
