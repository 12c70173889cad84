// The batch tier of a service (docs/spend-and-replay.md, the batch tier), built when a binding's
// judge mode is 'batch': the provider's batch client from `judge.batch` (OpenAI's Batch API, also
// any OpenAI-compatible server with it, or Anthropic's Message Batches), probed before the service
// starts — a server without a batch API fails the start with what to do — the judge its bindings'
// attempts run with (models built with the tier's fetch, priced at `pricing.batchRate`), and the
// reader of `{retry}-batch-state` that a claimed batch-tier partition restores its open batches from.
// A replay has one only with --judge-mode batch, on batch-tier topics of its own (service/replay.ts).
import type { Logger } from 'pino';
import { createPriceTable } from '../src/engine/budget/prices.ts';
import { createAnthropicBatches } from '../src/engine/judge-batch/anthropic-batches.ts';
import { createBatchJudge } from '../src/engine/judge-batch/batch-judge.ts';
import type { BatchJudge } from '../src/engine/judge-batch/batch-judge.ts';
import type { BatchProvider } from '../src/engine/judge-batch/batch-provider.ts';
import type { JudgeBatchConfig } from '../src/engine/judge-batch/batch-schema.ts';
import { createOpenAIBatches } from '../src/engine/judge-batch/openai-batches.ts';
import type { ResolvedConfig } from '../src/engine/config/resolve-config.ts';
import { entryOf, topologyOfConfig } from '../src/engine/topology/topology.ts';
import type { BatchTier } from '../consumers/task-routes.ts';
import type { AccessContext } from '../kafka/kafka-access-error.ts';
import type { KafkaEdge } from '../kafka/kafka-edge.ts';
import { stateTopicReader } from '../kafka/read-changelog-partition.ts';

export type ServiceBatchTier = { readonly judge: BatchJudge; readonly tier: BatchTier };

/** The provider's batch client of `judge.batch`. */
export function batchProviderOf(batch: JudgeBatchConfig, fetch?: typeof globalThis.fetch): BatchProvider {
  const options = { baseURL: batch.baseURL, ...(batch.apiKey === undefined ? {} : { apiKey: batch.apiKey }), ...(batch.headers === undefined ? {} : { headers: batch.headers }), ...(fetch === undefined ? {} : { fetch }) };
  return batch.api === 'anthropic' ? createAnthropicBatches(options) : createOpenAIBatches(options);
}

/** The tier, probed; undefined when no binding's judge mode is 'batch'. */
export async function startBatchTier(config: ResolvedConfig, edge: KafkaEdge, access: AccessContext, logger: Logger): Promise<ServiceBatchTier | undefined> {
  const batch = config.judge?.batch;
  const state = entryOf(topologyOfConfig(config), 'batch-state');
  if (batch === undefined || state === undefined) return undefined;
  const provider = batchProviderOf(batch);
  await provider.probe();
  logger.info({ api: batch.api, baseURL: batch.baseURL, bindings: config.scorers.filter((binding) => binding.judge?.mode === 'batch').map((binding) => binding.scorerId) }, 'the batch tier is on: batch-mode judges wait on the provider’s batch API');
  return {
    judge: createBatchJudge({ baseURL: batch.baseURL, models: batch.models, priceRate: config.pricing.batchRate, prices: createPriceTable(config.pricing.models, config.pricing.currency) }),
    tier: {
      provider,
      settings: batch,
      maxPendingPairs: batch.maxPendingPairs,
      readState: stateTopicReader(edge, state.name, access, 'to restore the open judge batches of a batch-tier partition'),
    },
  };
}
