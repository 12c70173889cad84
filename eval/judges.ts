// `npm run eval:judges`: how well a judge agrees with the labelled set (docs/judge-quality.md).
// The edge only: parse the command line, build the judge model (local or any OpenAI-compatible
// server), run eval/judge-quality over it, print the markdown report and optionally write JSON.
import { writeFileSync } from 'node:fs';
import type { LanguageModelV4 } from '@ai-sdk/provider';
import type { LlamaLanguageModel } from '../local/model/llama-language-model.ts';
import { createLocalJudgeModels } from '../local/model/local-judge-models.ts';
import { createOpenAICompatibleJudgeProvider } from '../src/kit/judge/openai-compatible.ts';
import { evalUsage, parseEvalArgs } from './judge-quality/eval-args.ts';
import type { EvalJudgeTarget } from './judge-quality/eval-args.ts';
import { formatMarkdownReport, jsonReport } from './judge-quality/format-report.ts';
import { labelledCases } from './judge-quality/labelled-cases.ts';
import { runJudgeEval } from './judge-quality/run-judge-eval.ts';

const parsed = parseEvalArgs(process.argv.slice(2));
if (!parsed.ok) {
  if (parsed.help) {
    console.log(evalUsage);
    process.exit(0);
  }
  console.error(`${parsed.message}\n\n${evalUsage}`);
  process.exit(2);
}
const { args } = parsed;

const log = (line: string) => process.stderr.write(`${line}\n`);
const { model, judgeName, load, dispose } = judgeModel(args.judge, args.threads);
try {
  // A local model loads (and is fetched, the first time) before the clock starts: the report
  // measures judging, not start-up.
  await load();
  const reports = await runJudgeEval({
    model,
    cases: labelledCases,
    scorerIds: args.scorerIds,
    concurrency: args.concurrency,
    timeoutMs: args.timeoutMs,
    ...(args.limit === undefined ? {} : { limit: args.limit }),
    modelSettings: {
      ...(args.callTimeoutMs === undefined ? {} : { timeout: args.callTimeoutMs }),
      ...(args.retries === undefined ? {} : { maxRetries: args.retries }),
      ...(args.maxOutputTokens === undefined ? {} : { maxOutputTokens: args.maxOutputTokens }),
    },
    onCase: ({ scorerId, done, of, result }) => {
      const { outcome } = result;
      const said = outcome.status === 'scored' ? `${outcome.predicted} (reference: ${outcome.expected})` : outcome.status === 'failed' ? `failed: ${outcome.error}` : 'not scorable';
      const seconds = result.calls.map((call) => (call.durationMs / 1000).toFixed(1)).join(' + ');
      log(`${scorerId} ${done}/${of} ${result.caseId}: ${said} · ${result.calls.length} call(s), ${seconds || '0'} s`);
    },
  });
  const header = {
    judge: judgeName,
    date: new Date().toISOString(),
    command: `npm run eval:judges -- ${process.argv.slice(2).join(' ')}`.trim(),
    ...(args.limit === undefined ? {} : { limit: args.limit }),
  };
  console.log(formatMarkdownReport(header, reports));
  if (args.jsonFile !== undefined) {
    writeFileSync(args.jsonFile, jsonReport(header, reports));
    log(`wrote ${args.jsonFile}`);
  }
} finally {
  await dispose();
}

type EvalJudgeModel = { model: LanguageModelV4; judgeName: string; load: () => Promise<void>; dispose: () => Promise<void> };

function judgeModel(target: EvalJudgeTarget, threads: number | undefined): EvalJudgeModel {
  if (target.kind === 'local') {
    const local = createLocalJudgeModels({ onLine: log, ...(threads === undefined ? {} : { threads }) });
    const model = local.languageModel(target.modelId) as LlamaLanguageModel;
    return { model, judgeName: target.modelId, load: () => model.load(), dispose: () => local.dispose() };
  }
  const apiKey = process.env.SCORESTREAM_JUDGE_API_KEY?.trim();
  const provider = createOpenAICompatibleJudgeProvider({ baseURL: target.baseURL, ...(apiKey ? { apiKey } : {}) });
  return { model: provider.languageModel(target.modelId), judgeName: `${target.baseURL} · ${target.modelId}`, load: async () => {}, dispose: async () => {} };
}
