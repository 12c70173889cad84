// Caps concurrent calls per judge model: a provider's rate limit is per model, and a backlog
// of thousands of runs must not become thousands of simultaneous requests. Applied to the
// models a resolver hands out, so every scorer that names a model by id shares one cap.
// Inside a slot, each request (one HTTP attempt) may get its own timeout (`callTimeoutMs`, else a
// quarter of the scorer's deadline up to `defaultCallTimeoutMs`): a hung
// request then holds its slot for that long, not for the scorer's whole deadline, and is retried
// by the AI SDK like a 5xx. The time spent waiting for a slot is reported to the judge call's
// evidence (slot-wait.ts) and to `onSlotWait` (a metric), so a full queue can be told from a slow
// provider.
import { wrapLanguageModel } from 'ai';
import type { LanguageModel } from 'ai';
import { generateWithTimeout } from '../../kit/judge/request-timeout.ts';
import { reportSlotWait, scopeScorerTimeoutMs } from '../../kit/judge/slot-wait.ts';
import type { JudgeModelResolver } from '../../kit/judge/types.ts';
import { CallLimiter } from '../../kit/call-limiter.ts';

type ModelObject = Exclude<LanguageModel, string>;

export type LimitedModels = JudgeModelResolver & {
  /** Wraps a model object (one given directly in a scorer's judge config) with its id's cap. */
  limit(model: ModelObject): ModelObject;
  /** Runs one call to any model (a classifier's decision model) under the cap of its provider and id. */
  run<T>(model: { provider: string; modelId: string }, call: () => PromiseLike<T>): Promise<T>;
  readonly limiters: ReadonlyMap<string, CallLimiter>;
};

export type JudgeCallOptions = {
  /** Bound on one model request inside its slot (judge.callTimeoutMs); wins over the default below. */
  callTimeoutMs?: number;
  /**
   * Without `callTimeoutMs`: a request is bounded by a quarter of its scorer's deadline (declared by
   * the judge call, slot-wait.ts), at most this; by this alone when no deadline is known. None when
   * both are undefined.
   */
  defaultCallTimeoutMs?: number;
  /** Each call's wait for a slot, by the model's provider and id (the slot-wait metric). */
  onSlotWait?: (model: { provider: string; modelId: string }, waitedMs: number) => void;
};

export function limitJudgeConcurrency(resolver: JudgeModelResolver | undefined, callsPerModel: number, options: JudgeCallOptions = {}): LimitedModels {
  const limiters = new Map<string, CallLimiter>();
  const wrapped = new WeakMap<object, ModelObject>();
  const limiterFor = (key: string) => {
    let limiter = limiters.get(key);
    if (limiter === undefined) limiters.set(key, (limiter = new CallLimiter(callsPerModel)));
    return limiter;
  };
  const providerOf = (model: { provider?: unknown }) => (typeof model.provider === 'string' ? model.provider : 'model');
  const keyOf = (model: { provider?: unknown; modelId: string }) => `${providerOf(model)}:${model.modelId}`;
  const waitListener = (model: { provider?: unknown; modelId: string }) => {
    const identity = { provider: providerOf(model), modelId: model.modelId };
    return (waitedMs: number) => {
      reportSlotWait(waitedMs);
      options.onSlotWait?.(identity, waitedMs);
    };
  };
  /** A quarter of the deadline leaves room for the SDK's retries of a hung request within it. */
  const requestTimeoutMs = (): number | undefined => {
    if (options.callTimeoutMs !== undefined) return options.callTimeoutMs;
    const deadline = scopeScorerTimeoutMs();
    const fromDeadline = deadline === undefined ? undefined : Math.max(1, Math.floor(deadline / 4));
    if (options.defaultCallTimeoutMs === undefined) return fromDeadline;
    return fromDeadline === undefined ? options.defaultCallTimeoutMs : Math.min(fromDeadline, options.defaultCallTimeoutMs);
  };
  const settingName = options.callTimeoutMs === undefined ? "judge.callTimeoutMs (default: a quarter of the binding's timeoutMs, at most 30 s)" : 'judge.callTimeoutMs';
  const limit = (model: ModelObject): ModelObject => {
    const existing = wrapped.get(model);
    if (existing !== undefined) return existing;
    const limiter = limiterFor(keyOf(model));
    const onWaited = waitListener(model);
    const result = wrapLanguageModel({
      model: model as never,
      middleware: {
        wrapGenerate: ({ doGenerate, params, model: inner }) => {
          const timeoutMs = requestTimeoutMs();
          return limiter.run(() => (timeoutMs === undefined ? doGenerate() : generateWithTimeout(inner, params, timeoutMs, settingName)), onWaited);
        },
        wrapStream: ({ doStream }) => limiter.run(doStream, onWaited),
      },
    }) as ModelObject;
    wrapped.set(model, result);
    return result;
  };
  return {
    limiters,
    limit,
    run: (model, call) => limiterFor(keyOf(model)).run(call, waitListener(model)),
    languageModel(id: string) {
      if (resolver === undefined) throw new Error(`no judge model resolver is configured, so '${id}' cannot be resolved`);
      return limit(resolver.languageModel(id) as ModelObject);
    },
  };
}
