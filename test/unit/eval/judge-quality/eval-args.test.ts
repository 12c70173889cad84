import { describe, expect, it } from 'vitest';
import { parseEvalArgs } from '../../../../eval/judge-quality/eval-args.ts';
import { evalScorerIds } from '../../../../eval/judge-quality/scorer-labels.ts';

const messageOf = (argv: string[]) => {
  const parsed = parseEvalArgs(argv);
  return parsed.ok || parsed.help ? undefined : parsed.message;
};

describe('parseEvalArgs', () => {
  it('defaults to the local Gemma model, every scorer, one case at a time', () => {
    expect(parseEvalArgs([])).toEqual({
      ok: true,
      args: { judge: { kind: 'local', modelId: 'local:gemma3-270m' }, scorerIds: [...evalScorerIds], concurrency: 1, timeoutMs: 180_000 },
    });
  });

  it('takes an OpenAI-compatible server with its model, scorers, limits and a JSON file', () => {
    const parsed = parseEvalArgs([
      '--judge', 'https://api.example.com/v1', '--model', 'judge-large',
      '--scorer', 'toxicity', '--scorer', 'support-tone', '--scorer', 'toxicity',
      '--limit', '10', '--concurrency', '4', '--timeout-ms', '60000', '--call-timeout-ms', '30000', '--retries', '0', '--max-output-tokens', '300', '--json', 'out.json',
    ]);
    expect(parsed).toEqual({
      ok: true,
      args: {
        judge: { kind: 'openai-compatible', baseURL: 'https://api.example.com/v1', modelId: 'judge-large' },
        scorerIds: ['toxicity', 'support-tone'],
        limit: 10,
        concurrency: 4,
        timeoutMs: 60_000,
        callTimeoutMs: 30_000,
        retries: 0,
        maxOutputTokens: 300,
        jsonFile: 'out.json',
      },
    });
  });

  it('takes a local GGUF path and its threads', () => {
    const parsed = parseEvalArgs(['--judge', 'local:/models/judge.gguf', '--threads', '1']);
    expect(parsed.ok && parsed.args).toMatchObject({ judge: { kind: 'local', modelId: 'local:/models/judge.gguf' }, threads: 1 });
    expect(messageOf(['--judge', 'http://localhost:8000/v1', '--model', 'm', '--threads', '2'])).toMatch(/--threads sets the CPU threads of a local model/);
  });

  it('says what to write instead of a mistake', () => {
    expect(messageOf(['--judge', 'http://localhost:11434/v1'])).toMatch(/--model, e.g. --model/);
    expect(messageOf(['--judge', 'gpt-4o'])).toMatch(/neither a local model .* nor an OpenAI-compatible base URL/);
    expect(messageOf(['--model', 'x'])).toMatch(/a local judge is named by --judge alone/);
    expect(messageOf(['--scorer', 'helpfulness'])).toMatch(/'helpfulness' is not one of answer-relevancy/);
    expect(messageOf(['--limit', '0'])).toBe("--limit takes a positive whole number, not '0'.");
    expect(messageOf(['--concurrency', '1.5'])).toMatch(/--concurrency takes a positive whole number/);
    expect(messageOf(['--retries=-1'])).toBe("--retries takes a whole number, not '-1'.");
    expect(messageOf(['--retries', 'two'])).toBe("--retries takes a whole number, not 'two'.");
    expect(messageOf(['--bogus'])).toMatch(/bogus/);
  });

  it('asks for the usage on --help', () => {
    expect(parseEvalArgs(['--help'])).toEqual({ ok: false, help: true });
  });
});
