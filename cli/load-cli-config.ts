// The config of `start` and `replay`: the user's file, its judge models (`local:` ids and the
// SCORESTREAM_JUDGE_* variables, cli/judge-environment.ts) and the environment's overrides,
// validated before anything touches Kafka.
import type { Logger } from 'pino';
import { ConfigError } from '../src/engine/config/config-error.ts';
import { resolveConfig } from '../src/engine/config/resolve-config.ts';
import type { ResolvedConfig } from '../src/engine/config/resolve-config.ts';
import { loadConfigFile } from '../service/load-config-file.ts';
import { applyJudgeEnvironment, setUpJudgeModels } from './judge-environment.ts';

/** The resolved config, or undefined after printing every problem of an invalid one (the command exits 2). */
export async function loadCliConfig(file: string, logger: Logger): Promise<ResolvedConfig | undefined> {
  try {
    const judge = setUpJudgeModels(process.env, (line) => logger.info(`local judge: ${line}`));
    const input = applyJudgeEnvironment(await loadConfigFile(file), judge);
    return resolveConfig(input, { environment: process.env, source: file });
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      return undefined;
    }
    throw error;
  }
}
