// Caps concurrent calls per judge model: a provider's rate limit is per model, and a backlog
// of thousands of runs must not become thousands of simultaneous requests. Applied to the
// models a resolver hands out, so every scorer that names a model by id shares one cap.
import { wrapLanguageModel } from 'ai';
import type { LanguageModel } from 'ai';
import type { JudgeModelResolver } from '../judge/types.ts';

type ModelObject = Exclude<LanguageModel, string>;

/** A counting semaphore with a FIFO queue. */
export class CallLimiter {
  readonly limit: number;
  private active = 0;
  private readonly queue: Array<() => void> = [];

  constructor(limit: number) {
    this.limit = limit;
  }

  get activeCalls(): number {
    return this.active;
  }

  get queuedCalls(): number {
    return this.queue.length;
  }

  async run<T>(call: () => PromiseLike<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.queue.push(resolve));
    else this.active += 1;
    try {
      return await call();
    } finally {
      const next = this.queue.shift();
      if (next === undefined) this.active -= 1;
      else next(); // hand the slot straight over
    }
  }
}

export type LimitedModels = JudgeModelResolver & {
  /** Wraps a model object (one given directly in a scorer's judge config) with its id's cap. */
  limit(model: ModelObject): ModelObject;
  /** Runs one call to any model (a classifier's decision model) under the cap of its provider and id. */
  run<T>(model: { provider: string; modelId: string }, call: () => PromiseLike<T>): Promise<T>;
  readonly limiters: ReadonlyMap<string, CallLimiter>;
};

export function limitJudgeConcurrency(resolver: JudgeModelResolver | undefined, callsPerModel: number): LimitedModels {
  const limiters = new Map<string, CallLimiter>();
  const wrapped = new WeakMap<object, ModelObject>();
  const limiterFor = (key: string) => {
    let limiter = limiters.get(key);
    if (limiter === undefined) limiters.set(key, (limiter = new CallLimiter(callsPerModel)));
    return limiter;
  };
  const keyOf = (model: { provider?: unknown; modelId: string }) => `${typeof model.provider === 'string' ? model.provider : 'model'}:${model.modelId}`;
  const limit = (model: ModelObject): ModelObject => {
    const existing = wrapped.get(model);
    if (existing !== undefined) return existing;
    const limiter = limiterFor(keyOf(model));
    const result = wrapLanguageModel({
      model: model as never,
      middleware: {
        wrapGenerate: ({ doGenerate }) => limiter.run(doGenerate),
        wrapStream: ({ doStream }) => limiter.run(doStream),
      },
    }) as ModelObject;
    wrapped.set(model, result);
    return result;
  };
  return {
    limiters,
    limit,
    run: (model, call) => limiterFor(keyOf(model)).run(call),
    languageModel(id: string) {
      if (resolver === undefined) throw new Error(`no judge model resolver is configured, so '${id}' cannot be resolved`);
      return limit(resolver.languageModel(id) as ModelObject);
    },
  };
}
