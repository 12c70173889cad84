import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { APICallError, RetryError } from 'ai';
import { z } from 'zod';
import { createScorer } from '../../../../../src/kit/scorer/create-scorer.ts';
import type { JudgeConfig } from '../../../../../src/kit/judge/types.ts';
import { JudgeTimeoutError } from '../../../../../src/kit/judge/judge-errors.ts';
import { limitJudgeConcurrency } from '../../../../../src/engine/pipeline/limit-judge-concurrency.ts';
import { judgeReply, mockJudge, providerError } from '../../../../../src/kit/testing/mock-judge.ts';
import { scorerFailure as failure } from '../../../../helpers/scorer-failure.ts';

const schema = z.object({ verdict: z.enum(['yes', 'no']), confidence: z.number() });

function analyzeScorer(judge: JudgeConfig) {
  return createScorer({ id: 'judge-test', description: 'd', judge })
    .analyze({ description: 'Decide', outputSchema: schema, createPrompt: () => 'Decide please.' })
    .generateScore(({ results }) => results.analyzeStepResult.confidence);
}

describe('format fallback: one more attempt for format errors only', () => {
  it('retries malformed JSON once with the JSON Schema written into the prompt, summing usage over attempts', async () => {
    const model = mockJudge({ answers: ['{"verdict": "yes", ', { verdict: 'yes', confidence: 0.8 }] });
    const result = await analyzeScorer({ model, instructions: 'i' }).run({ output: 'o' });
    expect(result.score).toBe(0.8);
    expect(model.calls).toHaveLength(2);
    const [first, second] = model.calls;
    expect(first!.user).toBe('Decide please.');
    expect(second!.user).toMatch(/^Decide please\.\n\nReturn your response as JSON matching this schema:\n\{/);
    expect(second!.user).toContain('"verdict"');
    expect(second!.system).toBe('i');
    expect(result.judge?.analyze?.executions).toEqual([
      expect.objectContaining({
        status: 'success',
        attemptCount: 2,
        modelCallCount: 2,
        usage: { inputTokens: 20, outputTokens: 10, totalTokens: 30 },
        prompt: 'Decide please.',
      }),
    ]);
    expect(result.analyzePrompt).toBe('Decide please.');
  });

  it('retries a schema-violating answer once, then fails with one failed execution of two attempts', async () => {
    const model = mockJudge({ answers: [{ verdict: 'maybe' }, { verdict: 'perhaps', confidence: 'high' }] });
    const error = await failure(analyzeScorer({ model, instructions: 'i' }).run({ runId: 'r', output: 'o' }));
    expect(model.calls).toHaveLength(2);
    expect(error.failedStep).toBe('analyze');
    expect(error.cause.name).toBe('AI_NoObjectGeneratedError');
    expect(error.canRetry).toBe(false);
    const executions = error.result?.judge?.analyze?.executions;
    expect(executions).toHaveLength(1);
    expect(executions?.[0]).toMatchObject({
      status: 'failed',
      attemptCount: 2,
      modelCallCount: 2,
      rawOutput: '{"verdict":"perhaps","confidence":"high"}',
      usage: { inputTokens: 20, outputTokens: 10, totalTokens: 30 },
      finishReason: 'stop',
      error: { name: 'AI_NoObjectGeneratedError' },
    });
    expect(JSON.stringify(executions?.[0])).toMatch(/did not match schema/);
  });

  it('treats an empty truncated answer as a format error', async () => {
    const model = mockJudge({ answers: [judgeReply('', { finishReason: 'length' }), { verdict: 'no', confidence: 0.1 }] });
    const result = await analyzeScorer({ model, instructions: 'i' }).run({ output: 'o' });
    expect(result.score).toBe(0.1);
    expect(result.judge?.analyze?.executions[0]?.attemptCount).toBe(2);
  });

  it('writes the schema into the user turn on the first attempt with jsonPromptInjection true/inline', async () => {
    for (const jsonPromptInjection of [true, 'inline'] as const) {
      const model = mockJudge({ answer: { verdict: 'yes', confidence: 1 } });
      await analyzeScorer({ model, instructions: 'i', jsonPromptInjection }).run({ output: 'o' });
      expect(model.calls[0]!.user).toContain('Return your response as JSON matching this schema');
    }
  });

  it("writes the schema into the system prompt with jsonPromptInjection 'system', also on the retry", async () => {
    const model = mockJudge({ answers: ['nope', { verdict: 'yes', confidence: 1 }] });
    await analyzeScorer({ model, instructions: 'i', jsonPromptInjection: 'system' }).run({ output: 'o' });
    expect(model.calls).toHaveLength(2);
    for (const texts of model.calls) {
      expect(texts.system).toContain('Return your response as JSON matching this schema');
      expect(texts.user).toBe('Decide please.');
    }
  });

  it('does not retry generateReason (free text): one attempt', async () => {
    const model = mockJudge({ answers: [{ score: 1 }, providerError(400)] });
    const error = await failure(
      createScorer({ id: 's', description: 'd', judge: { model, instructions: 'i' } })
        .generateScore({ description: 's', createPrompt: () => 'p' })
        .generateReason({ description: 'r', createPrompt: () => 'why' })
        .run({ output: 'o' }),
    );
    expect(model.calls).toHaveLength(2);
    expect(error.result?.judge?.generateReason?.executions[0]).toMatchObject({ status: 'failed', attemptCount: 1 });
  });
});

describe('transient provider errors: retried by the AI SDK, honouring Retry-After', () => {
  it('retries a 429 with retry-after-ms and succeeds; only answered calls count as model calls', async () => {
    const model = mockJudge({ answers: [providerError(429, { retryAfterMs: 10 }), { verdict: 'yes', confidence: 0.7 }] });
    const result = await analyzeScorer({ model, instructions: 'i' }).run({ output: 'o' });
    expect(result.score).toBe(0.7);
    expect(model.calls).toHaveLength(2);
    expect(result.judge?.analyze?.executions[0]).toMatchObject({ status: 'success', attemptCount: 1, modelCallCount: 1 });
  });

  it('gives up after maxRetries with a retryable failure (canRetry), finishReason error and no usage', async () => {
    const model = mockJudge({ answer: providerError(503, { retryAfterMs: 1 }) });
    const error = await failure(
      analyzeScorer({ model, instructions: 'i', modelSettings: { maxRetries: 2 } }).run({ runId: 'r', output: 'o' }),
    );
    expect(model.calls).toHaveLength(3);
    expect(RetryError.isInstance(error.cause)).toBe(true);
    expect(error.canRetry).toBe(true);
    const execution = error.result?.judge?.analyze?.executions[0];
    expect(execution).toMatchObject({ status: 'failed', attemptCount: 1, modelCallCount: 0, finishReason: 'error' });
    expect(execution && 'usage' in execution).toBe(false);
    expect(execution).toMatchObject({ error: { message: expect.stringMatching(/Failed after 3 attempts/) } });
  });

  it('with maxRetries 0 the provider error itself is the cause', async () => {
    const model = mockJudge({ answer: providerError(500) });
    const error = await failure(analyzeScorer({ model, instructions: 'i', modelSettings: { maxRetries: 0 } }).run({ output: 'o' }));
    expect(model.calls).toHaveLength(1);
    expect(APICallError.isInstance(error.cause)).toBe(true);
    expect(error.canRetry).toBe(true);
  });

  it('does not retry a non-retryable provider error (format fallback included)', async () => {
    const model = mockJudge({ answer: providerError(401) });
    const error = await failure(analyzeScorer({ model, instructions: 'i' }).run({ output: 'o' }));
    expect(model.calls).toHaveLength(1);
    expect(error.canRetry).toBe(false);
    expect(error.result?.judge?.analyze?.executions[0]).toMatchObject({
      status: 'failed',
      attemptCount: 1,
      modelCallCount: 0,
      finishReason: 'error',
      error: { name: 'AI_APICallError', message: 'Provider answered 401' },
    });
  });
});

describe('timeouts and aborts', () => {
  it('times out a hanging model call (even one ignoring its abort signal) with modelSettings.timeout', async () => {
    const model = mockJudge({ answer: judgeReply('never sent', { delayMs: Infinity, ignoreAbort: true }) });
    const error = await failure(
      analyzeScorer({ model, instructions: 'i', modelSettings: { timeout: 20, maxRetries: 0 } }).run({ output: 'o' }),
    );
    expect(error.cause).toBeInstanceOf(JudgeTimeoutError);
    expect(error.cause.message).toMatch(/did not answer within 20 ms/);
    expect(error.canRetry).toBe(true);
    expect(error.result?.judge?.analyze?.executions[0]).toMatchObject({ status: 'failed', modelCallCount: 0, finishReason: 'error' });
  });

  it('aborts the provider request on timeout and retries it as a transient error', async () => {
    // Fake timers: the 20 ms timeout, and the SDK's back-off before its retry (2 s), pass at once.
    vi.useFakeTimers();
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const model = mockJudge({ answers: [judgeReply('never sent', { delayMs: Infinity }), { verdict: 'yes', confidence: 0.5 }] });
    const running = analyzeScorer({ model, instructions: 'i', modelSettings: { timeout: 20, maxRetries: 1 } }).run({
      output: 'o',
    });
    await vi.runAllTimersAsync();
    const result = await running;
    expect(result.score).toBe(0.5);
    expect(model.calls).toHaveLength(2);
    expect(model.calls[0]!.options.abortSignal?.aborted).toBe(true);
    expect(model.calls[0]!.options.abortSignal?.reason).toBeInstanceOf(JudgeTimeoutError);
  });

  it('an abortSignal passed to run() aborts the in-flight judge call and fails the step', async () => {
    const model = mockJudge({ answer: { verdict: 'yes', confidence: 1 }, delayMs: Infinity });
    const controller = new AbortController();
    const running = analyzeScorer({ model, instructions: 'i' }).run({ output: 'o' }, { abortSignal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort(new Error('service shutting down'));
    const error = await failure(running);
    expect(error.failedStep).toBe('analyze');
    expect(error.cause.message).toBe('service shutting down');
    expect(model.calls[0]!.options.abortSignal?.aborted).toBe(true);
    expect(model.calls).toHaveLength(1);
  });

  it('an abort also interrupts a model that ignores its signal', async () => {
    const model = mockJudge({ answer: judgeReply('never sent', { delayMs: Infinity, ignoreAbort: true }) });
    const controller = new AbortController();
    const running = analyzeScorer({ model, instructions: 'i' }).run({ output: 'o' }, { abortSignal: controller.signal });
    setTimeout(() => controller.abort(new Error('stop')), 5);
    const error = await failure(running);
    expect(error.cause.message).toBe('stop');
  });
});

describe('judge evidence never carries provider secrets', () => {
  const secret = 'sk-SECRET-1234567890';

  it('keeps headers, bodies, raw usage and request data out of the result', async () => {
    const model = mockJudge({
      answer: judgeReply(
        { verdict: 'yes', confidence: 0.9 },
        {
          rawUsage: { api_key: secret },
          response: {
            id: 'resp',
            modelId: 'm',
            timestamp: new Date(0),
            headers: { authorization: `Bearer ${secret}` },
            body: { echo: secret },
          },
          request: { body: { key: secret } },
        },
      ),
    });
    const result = await analyzeScorer({ model, instructions: 'i' }).run({ output: 'o' });
    expect(JSON.stringify(result)).not.toContain(secret);
    expect(JSON.stringify(result)).not.toContain('SECRET');
  });

  it('keeps a failing APICallError (headers, body, request) out of the snapshot and the serialised error', async () => {
    const model = mockJudge({
      answers: [
        judgeReply({ verdict: 'yes', confidence: 0.9 }, { rawUsage: { token: secret }, response: { headers: { 'x-key': secret }, body: secret } }),
        providerError(401, { body: `{"error":"bad key ${secret}"}`, headers: { 'set-cookie': secret } }),
      ],
    });
    const error = await failure(
      createScorer({ id: 's', description: 'd', judge: { model, instructions: 'i' } })
        .analyze({ description: 'Decide', outputSchema: schema, createPrompt: () => 'p' })
        .generateScore({ description: 'score', createPrompt: () => 'score' })
        .run({ output: 'o' }),
    );
    expect(error.result?.judge?.analyze?.executions[0]?.status).toBe('success');
    expect(error.result?.judge?.generateScore?.executions[0]?.status).toBe('failed');
    expect(JSON.stringify(error.result)).not.toContain('SECRET');
    expect(JSON.stringify(error)).not.toContain('SECRET');
    expect(error.message).not.toContain('SECRET');
  });
});

describe('judge records fit the score-record contract', () => {
  it('validates success and failure executions against judgeResultsSchema', async () => {
    const { judgeResultsSchema } = await import('../../../../../src/kit/contracts/judge-execution.ts');
    const model = mockJudge({
      answers: [judgeReply({ verdict: 'yes', confidence: 0.9 }, { response: { id: 'r', timestamp: new Date(0), modelId: 'm' } }), 'bad', 'still bad'],
    });
    const error = await failure(
      createScorer({ id: 's', description: 'd', judge: { model, instructions: 'i' } })
        .analyze({ description: 'Decide', outputSchema: schema, createPrompt: () => 'p' })
        .generateScore({ description: 'score', createPrompt: () => 'score' })
        .run({ output: 'o' }),
    );
    const parsed = judgeResultsSchema.safeParse(JSON.parse(JSON.stringify(error.result?.judge)));
    expect(parsed.success).toBe(true);
    expect(error.result?.judge?.generateScore?.executions[0]).toMatchObject({ status: 'failed', attemptCount: 2, rawOutput: 'still bad' });
  });
});

describe('slot-wait evidence', () => {
  it('records queuedMs: the time the step waited for a judge slot of the per-model cap, none without a cap', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const model = mockJudge({ answer: async () => (await gate, { verdict: 'yes', confidence: 0.5 }) });
    const models = limitJudgeConcurrency({ languageModel: () => model }, 1);
    const scorer = analyzeScorer({ model: 'judge', instructions: 'i' });
    const first = scorer.run({ output: 'o' }, { models });
    const second = scorer.run({ output: 'o' }, { models });
    // The second run's request waits for the first's slot until the gate opens.
    await vi.waitFor(() => expect(model.calls).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    const [firstResult, secondResult] = await Promise.all([first, second]);
    const queued = (result: typeof firstResult) => result.judge?.analyze?.executions[0]?.queuedMs;
    expect(queued(firstResult)).toBe(0);
    expect(queued(secondResult)).toBeGreaterThanOrEqual(15);

    const uncapped = await analyzeScorer({ model: mockJudge({ answer: { verdict: 'no', confidence: 0.1 } }), instructions: 'i' }).run({ output: 'o' });
    expect(uncapped.judge?.analyze?.executions[0]).not.toHaveProperty('queuedMs');
  });
});
