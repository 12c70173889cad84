// One attempt of a batch-mode binding (docs/spend-and-replay.md, the batch tier): the services its
// scorer runs with. Its judge models are the config's `judge.batch.models`, built with the tier's
// fetch (batch-fetch.ts) over the answers the pair's batches gave so far, so a judge call with an
// answer is answered as live and one without is captured and deferred; the captured requests are
// what the pair then waits on. Judge calls are priced at the batch rate. A judge given as a model
// object cannot be reached by the tier's fetch, so it is refused with what to do.
import type { JudgeCallGate, MadeJudgeCall, PlannedJudgeCall, ScorerServices } from '../../kit/scorer-services.ts';
import { judgeUsageCost } from '../budget/prices.ts';
import type { PriceTable } from '../budget/prices.ts';
import { createBatchFetch } from './batch-fetch.ts';
import type { BatchAnswer, BatchRequest } from './batch-request.ts';
import type { JudgeModelsWithFetch } from './batch-schema.ts';

/** An answer a batch gave, under its request's custom id (the retry message's `batch.answers`). */
export type KeyedBatchAnswer = BatchAnswer & { readonly customId: string; readonly live?: true };

export type BatchAttempt = {
  /** Laid over the run's services for this attempt. */
  readonly services: Pick<ScorerServices, 'models' | 'prepareModel' | 'judgeCalls'>;
  /** The judge requests the attempt deferred (none when every call had an answer). */
  deferred(): readonly BatchRequest[];
  /** The answers its live fallback got (liveOnFailure): carried to the pair's later rounds like a batch's. */
  liveAnswers(): Promise<KeyedBatchAnswer[]>;
};

export type BatchJudge = {
  /**
   * The services of one attempt, answered from `answers`; `judgeCalls` is the run's gate, which the
   * attempt's calls pass at the batch rate — but for calls answered by one of `counted` (an
   * earlier round counted them): those are priced for the record and not counted again.
   */
  attempt(answers: readonly KeyedBatchAnswer[], counted: ReadonlySet<string>, judgeCalls: JudgeCallGate | undefined, fallback?: { liveOnFailure?: boolean | undefined }): BatchAttempt;
};

export type BatchJudgeOptions = {
  /** The judge provider's base URL (`judge.batch.baseURL`). */
  baseURL: string;
  models: JudgeModelsWithFetch;
  /** `pricing.batchRate`. */
  priceRate: number;
  /** The price table (`pricing`): a call answered again is priced from it without being counted. */
  prices: PriceTable;
  /** The transport of a live fallback (default globalThis.fetch). */
  live?: typeof globalThis.fetch;
};

export function createBatchJudge(options: BatchJudgeOptions): BatchJudge {
  return {
    attempt(answers, counted, judgeCalls, fallback) {
      const byId = new Map(answers.map((answer) => [answer.customId, answer]));
      const deferred: BatchRequest[] = [];
      // A prompt step's calls are one at a time: the latest fetch is the call being settled.
      const latest: LatestCall = { call: 'fresh', priceRate: options.priceRate };
      const answerOf = (request: BatchRequest) => {
        const answer = byId.get(request.customId);
        latest.call = counted.has(request.customId) ? 'replayed' : 'fresh';
        latest.priceRate = answer?.live === true ? 1 : options.priceRate;
        return answer;
      };
      const onDeferred = (request: BatchRequest) => {
        latest.call = 'deferred';
        deferred.push(request);
      };
      const live = fallback?.liveOnFailure === true ? (options.live ?? globalThis.fetch) : undefined;
      const liveAnswers: Array<Promise<KeyedBatchAnswer | undefined>> = [];
      const onLive = (request: BatchRequest, response: Response) => {
        latest.call = 'live';
        liveAnswers.push(response.ok ? response.json().then((body: unknown) => ({ customId: request.customId, status: 'succeeded' as const, body, live: true as const }), () => undefined) : Promise.resolve(undefined));
      };
      const fetch = createBatchFetch({ baseURL: options.baseURL, answerOf, onDeferred, ...(live === undefined ? {} : { live, onLive }) });
      const services: BatchAttempt['services'] = {
        models: options.models(fetch),
        prepareModel: () => {
          throw new TypeError("a binding whose judge mode is 'batch' names its judge model by id (e.g. model: 'openai:gpt-4o-mini'), resolved through judge.batch.models; a model object cannot be sent to a batch — use an id, or judge mode 'live'");
        },
        ...(judgeCalls === undefined ? {} : { judgeCalls: atBatchRate(judgeCalls, options, latest) }),
      };
      return { services, deferred: () => deferred, liveAnswers: async () => (await Promise.all(liveAnswers)).filter((answer) => answer !== undefined) };
    },
  };
}

/**
 * The gate for batch answers: asked once the call was answered (a batch call is paid when it is
 * answered, so a budget counts it then, and a full one skips the pair), each call priced at the
 * batch rate; a call an earlier round counted is only priced, for the record.
 */
function atBatchRate(gate: JudgeCallGate, options: BatchJudgeOptions, latest: LatestCall): JudgeCallGate {
  const settle = (call: PlannedJudgeCall, made: MadeJudgeCall) => {
    switch (latest.call) {
      case 'deferred':
        return undefined; // not made: it waits on a batch
      case 'replayed':
        return judgeUsageCost(options.prices, made.judgeModelId, made.usage, latest.priceRate);
      case 'fresh':
        return gate.before(call).after({ ...made, priceRate: options.priceRate });
      case 'live':
        return gate.before(call).after(made); // the live fallback: at the list price
    }
  };
  return { before: (call) => ({ after: (made) => settle(call, made) }) };
}

/** What the latest judge call of the attempt was: answered for the first time, answered again (counted by an earlier round), deferred, or made live (its batch failed it). */
type LatestCall = { call: 'fresh' | 'replayed' | 'deferred' | 'live'; priceRate: number };
