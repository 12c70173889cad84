// The built-in LLM judges' prompts against a provider's prompt cache (docs/spend-and-replay.md,
// prompts laid out for caches): every built-in judge runs, through the real OpenAI-compatible
// provider path, on the demo's sample runs (the thread judges on its conversations), against the
// fault-injecting judge server, which keeps every request. Each request's rendered prompt (output
// schema, then messages) is compared with every earlier one of the same judge, and the shared
// prefix is counted as two caches would: a self-hosted server's block cache (vLLM's automatic
// prefix caching: whole blocks of 16 tokens, no minimum) and OpenAI's (from 1,024 tokens, steps of
// 128). Tokens are the mock's count, 4 characters each. Printed per judge: requests, mean prompt
// tokens, the share each cache would serve; and whether each step's fixed part was the same bytes
// on every run.
//   node bench/judge-prompt-cache.bench.ts [--runs 40]       (npm run bench:judge-cache)
import { parseArgs } from 'node:util';
import { generateSampleRuns } from '../producers/sample/index.ts';
import { buildThreadTurn } from '../src/engine/threads/build-thread-turn.ts';
import { buildThreadScorerInput } from '../src/engine/threads/thread-scorer-input.ts';
import { collectRunFacts } from '../src/engine/pipeline/run-facts.ts';
import { buildScorerInput } from '../src/engine/pipeline/scorer-input.ts';
import { parseAgentRunEvent } from '../src/kit/contracts/parse.ts';
import { threadTurnSchema } from '../src/kit/contracts/thread-turn.ts';
import { threadVersionIdFor } from '../src/kit/contracts/thread-ids.ts';
import type { ThreadTurn } from '../src/kit/contracts/thread-turn.ts';
import { createOpenAICompatibleJudgeProvider } from '../src/kit/judge/openai-compatible.ts';
import { builtInScorers } from '../src/kit/scorers/registry.ts';
import { createPromptCache, tokensOf } from '../test/helpers/prompt-cache.ts';
import type { PromptCacheRule } from '../test/helpers/prompt-cache.ts';
import { renderedPrompt, startFaultJudgeServer } from '../test/helpers/fault-judge-server.ts';
import type { OpenAIRequestBody } from '../test/helpers/fault-judge-server.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '40' } } });
const runCount = Number(values.runs);
const source = { topic: 'agent-runs', partition: 0, offset: '0' };

const runs = generateSampleRuns(runCount * 4, { seed: 'bench-judge-cache', includeTraceInBody: true }).flatMap((sample) => {
  const parsed = parseAgentRunEvent(sample.event);
  return parsed.success ? [collectRunFacts(parsed.data, source, {})] : [];
});
const runInputs = runs.slice(0, runCount).map((facts) => buildScorerInput(facts));
// Conversations: the sample runs' turns grouped by thread, as the thread state would hold them.
const byThread = new Map<string, ThreadTurn[]>();
for (const facts of runs) {
  const message = buildThreadTurn(facts, { records: [], decisions: [] }, { maxTurnBytes: 65_536 });
  if (message === undefined) continue;
  const turn = threadTurnSchema.parse(JSON.parse(message.json));
  byThread.set(turn.thread.key, [...(byThread.get(turn.thread.key) ?? []), turn]);
}
const threadInputs = [...byThread.entries()].slice(0, runCount).map(([key, turns]) => {
  const runIds = turns.map((turn) => turn.run.runId);
  return buildThreadScorerInput({ id: turns[0]!.thread.id, key, turns: turns.length, firstRunId: runIds[0]!, lastRunId: runIds.at(-1)!, closedBy: 'idle', version: 1, versionId: threadVersionIdFor(key, runIds), scope: 'conversation' }, turns);
});

const server = await startFaultJudgeServer('ok');
const provider = createOpenAICompatibleJudgeProvider({ baseURL: server.baseURL });
type Row = { judge: string; requests: number; promptTokens: number; served: Record<PromptCacheRule, number>; fixedSame: boolean; fixedTokens: number };
const rows: Row[] = [];
try {
  for (const entry of builtInScorers.filter((candidate) => candidate.kind === 'llm')) {
    const scorer = entry.factory({ model: provider.languageModel('judge-7b') } as never);
    const first = server.bodies.length;
    const inputs = entry.level === 'thread' ? threadInputs : runInputs;
    // The mock's answers are the schema's smallest instance: a judge may find them unusable and fail; its requests were made all the same.
    for (const input of inputs) await scorer.run(input as never).catch(() => undefined);
    const bodies = server.bodies.slice(first);
    // Per step (told apart by the output schema and system prompt): the fixed part of each request.
    const fixedByStep = new Map<string, Set<string>>();
    const caches = { blocks: new Map<string, ReturnType<typeof createPromptCache>>(), openai: new Map<string, ReturnType<typeof createPromptCache>>() };
    const served = { blocks: 0, openai: 0 };
    let promptTokens = 0;
    let fixedTokens = 0;
    for (const body of bodies as OpenAIRequestBody[]) {
      const messages = (body.messages ?? []) as { role: string; content: string | { text: string }[] }[];
      const step = JSON.stringify(body.response_format ?? null) + JSON.stringify(messages.find((message) => message.role === 'system')?.content ?? '');
      const user = messages.find((message) => message.role === 'user')?.content;
      const fixed = Array.isArray(user) ? (user[0]?.text ?? '') : '';
      fixedByStep.set(step, (fixedByStep.get(step) ?? new Set()).add(fixed));
      fixedTokens = Math.max(fixedTokens, tokensOf(step + fixed));
      const prompt = renderedPrompt(body);
      promptTokens += tokensOf(prompt);
      for (const rule of ['blocks', 'openai'] as const) {
        let cache = caches[rule].get(step);
        if (cache === undefined) caches[rule].set(step, (cache = createPromptCache(rule)));
        served[rule] += cache.read(prompt).cachedTokens;
      }
    }
    rows.push({ judge: entry.id, requests: bodies.length, promptTokens, served, fixedSame: [...fixedByStep.values()].every((set) => set.size === 1 && !set.has('')), fixedTokens });
  }
} finally {
  await server.close();
}

console.log(`\n# built-in judges' prompts against a prompt cache, ${runInputs.length} sample runs, ${threadInputs.length} conversations (mock tokens: 4 characters each)`);
console.log('| judge | requests | mean prompt tokens | largest fixed prefix (tokens) | fixed part the same bytes every run | block cache serves | OpenAI cache serves |\n|---|---:|---:|---:|:---:|---:|---:|');
const share = (part: number, whole: number) => (whole === 0 ? '—' : `${((100 * part) / whole).toFixed(1)}%`);
let all = { requests: 0, promptTokens: 0, blocks: 0, openai: 0 };
for (const row of rows) {
  console.log(`| ${row.judge} | ${row.requests} | ${row.requests === 0 ? '—' : Math.round(row.promptTokens / row.requests)} | ${row.fixedTokens} | ${row.fixedSame ? 'yes' : 'no'} | ${share(row.served.blocks, row.promptTokens)} | ${share(row.served.openai, row.promptTokens)} |`);
  all = { requests: all.requests + row.requests, promptTokens: all.promptTokens + row.promptTokens, blocks: all.blocks + row.served.blocks, openai: all.openai + row.served.openai };
}
console.log(`| all | ${all.requests} | ${all.requests === 0 ? '—' : Math.round(all.promptTokens / all.requests)} | | | ${share(all.blocks, all.promptTokens)} | ${share(all.openai, all.promptTokens)} |`);
if (rows.some((row) => !row.fixedSame)) process.exitCode = 1;
