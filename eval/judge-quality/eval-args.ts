// The command line of `npm run eval:judges` (docs/judge-quality.md), parsed into what the
// runner needs. Pure: mistakes come back as messages that say what to write instead.
import { parseArgs } from 'node:util';
import { evalScorerIds, isEvalScorerId } from './scorer-labels.ts';
import type { EvalScorerId } from './scorer-labels.ts';

export const defaultJudge = 'local:gemma3-270m';

export type EvalJudgeTarget =
  | { kind: 'local'; modelId: string }
  | { kind: 'openai-compatible'; baseURL: string; modelId: string };

export type EvalArgs = {
  judge: EvalJudgeTarget;
  scorerIds: EvalScorerId[];
  limit?: number;
  concurrency: number;
  timeoutMs: number;
  /** Judge model settings beyond the scorers' defaults: per-request timeout and retries. */
  callTimeoutMs?: number;
  retries?: number;
  /** The longest answer a judge call may give, in tokens. Default: the model's or server's own. */
  maxOutputTokens?: number;
  /** CPU threads of a local model. Default: the machine's cores. */
  threads?: number;
  jsonFile?: string;
};

export const evalUsage = `Usage: npm run eval:judges -- [options]
  --judge <id or URL>   local:gemma3-270m (default), local:/path/model.gguf, or an OpenAI-compatible
                        base URL such as https://api.openai.com/v1 (key: SCORESTREAM_JUDGE_API_KEY)
  --model <id>          the model on that server (required with a URL), e.g. gpt-4o-mini
  --scorer <id>         only this scorer; repeat for several (${evalScorerIds.join(', ')})
  --limit <n>           at most n cases per scorer, balanced across labels
  --concurrency <n>     cases scored at once per scorer (default 1; raise it for hosted judges)
  --timeout-ms <ms>     a case taking longer fails (default 180000)
  --call-timeout-ms <ms>  each judge request's timeout (default: the scorers' 60000)
  --retries <n>         retries of a failed judge request (default: the scorers' 2)
  --max-output-tokens <n>  the longest answer per judge call (a small model's free-text reasons ramble on)
  --threads <n>         CPU threads of a local model (default: the cores; 1 on a machine busy with other work)
  --json <file>         also write the figures and every case's outcome as JSON`;

export type ParsedEvalArgs = { ok: true; args: EvalArgs } | { ok: false; help: true } | { ok: false; help: false; message: string };

export function parseEvalArgs(argv: readonly string[]): ParsedEvalArgs {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        judge: { type: 'string' },
        model: { type: 'string' },
        scorer: { type: 'string', multiple: true },
        limit: { type: 'string' },
        concurrency: { type: 'string' },
        'timeout-ms': { type: 'string' },
        'call-timeout-ms': { type: 'string' },
        retries: { type: 'string' },
        threads: { type: 'string' },
        'max-output-tokens': { type: 'string' },
        json: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    return failure(`${(error as Error).message}.`);
  }
  if (values.help) return { ok: false, help: true };

  const judgeText = (values.judge ?? defaultJudge).trim();
  let judge: EvalJudgeTarget;
  if (/^https?:\/\//i.test(judgeText)) {
    const modelId = values.model?.trim();
    if (!modelId) return failure(`--judge ${judgeText} is a server: name the model on it with --model, e.g. --model gpt-4o-mini.`);
    judge = { kind: 'openai-compatible', baseURL: judgeText, modelId };
  } else if (judgeText.startsWith('local:')) {
    if (values.model !== undefined) return failure('--model names a model on a server given by URL; a local judge is named by --judge alone.');
    judge = { kind: 'local', modelId: judgeText };
  } else {
    return failure(`--judge '${judgeText}' is neither a local model (local:gemma3-270m, local:/path/model.gguf) nor an OpenAI-compatible base URL (https://…/v1).`);
  }

  const scorerIds: EvalScorerId[] = [];
  for (const id of values.scorer ?? evalScorerIds) {
    if (!isEvalScorerId(id)) return failure(`--scorer '${id}' is not one of ${evalScorerIds.join(', ')}.`);
    if (!scorerIds.includes(id)) scorerIds.push(id);
  }

  const limit = positiveInteger('--limit', values.limit);
  if (typeof limit === 'string') return failure(limit);
  const concurrency = positiveInteger('--concurrency', values.concurrency);
  if (typeof concurrency === 'string') return failure(concurrency);
  const timeoutMs = positiveInteger('--timeout-ms', values['timeout-ms']);
  if (typeof timeoutMs === 'string') return failure(timeoutMs);
  const callTimeoutMs = positiveInteger('--call-timeout-ms', values['call-timeout-ms']);
  if (typeof callTimeoutMs === 'string') return failure(callTimeoutMs);
  const retries = values.retries === '0' ? 0 : positiveInteger('--retries', values.retries);
  if (typeof retries === 'string') return failure(retries.replace('a positive whole number', 'a whole number'));
  const maxOutputTokens = positiveInteger('--max-output-tokens', values['max-output-tokens']);
  if (typeof maxOutputTokens === 'string') return failure(maxOutputTokens);
  const threads = positiveInteger('--threads', values.threads);
  if (typeof threads === 'string') return failure(threads);
  if (threads !== undefined && judge.kind !== 'local') return failure('--threads sets the CPU threads of a local model; a server decides its own.');

  return {
    ok: true,
    args: {
      judge,
      scorerIds,
      concurrency: concurrency ?? 1,
      timeoutMs: timeoutMs ?? 180_000,
      ...(limit === undefined ? {} : { limit }),
      ...(callTimeoutMs === undefined ? {} : { callTimeoutMs }),
      ...(retries === undefined ? {} : { retries }),
      ...(threads === undefined ? {} : { threads }),
      ...(maxOutputTokens === undefined ? {} : { maxOutputTokens }),
      ...(values.json === undefined ? {} : { jsonFile: values.json }),
    },
  };
}

/** The number, undefined when absent, or the message when it is not a positive integer. */
function positiveInteger(flag: string, text: string | undefined): number | undefined | string {
  if (text === undefined) return undefined;
  const value = Number(text);
  return Number.isInteger(value) && value > 0 ? value : `${flag} takes a positive whole number, not '${text}'.`;
}

function failure(message: string): ParsedEvalArgs {
  return { ok: false, help: false, message };
}
