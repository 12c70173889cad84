// `scorestream replay --dry-run`: reads the replay's range and, per scorer, counts the runs the
// replay would score (same decoding, loop guards, filters and sampling) and estimates their judge
// calls, tokens and cost — without calling any judge. Each judge model is replaced by an
// estimating stand-in with its identity (src/engine/budget/estimating-model.ts), so a scorer runs every
// prompt step it would, and the estimate is priced with the config's price table. Nothing is
// published and no offset is committed: the dry run reads its range group-less, with no group of
// its own to join, grant or delete.
import { trace } from '@opentelemetry/api';
import type { LanguageModel } from 'ai';
import { createEstimatingModel } from '../src/engine/budget/estimating-model.ts';
import { createJudgeSpend } from '../src/engine/budget/judge-spend.ts';
import type { JudgeResults } from '../src/kit/contracts/judge-execution.ts';
import { collectRunFacts } from '../src/engine/pipeline/run-facts.ts';
import { scoreRunEvent } from '../src/engine/pipeline/score-run-event.ts';
import { settleOutcomes } from '../src/engine/pipeline/scoring-outcome.ts';
import type { ConsumedMessage } from '../kafka/kafka-records.ts';
import type { ScorerServices } from '../src/kit/scorer-services.ts';
import { decodeAgentRunEvent } from '../src/kit/contracts/parse.ts';
import { isOwnOutput, isScorestreamRun } from '../consumers/loop-guard.ts';
import { runTraceContext, untracedMessage } from '../consumers/message-trace.ts';
import { createKafkaEdge } from '../kafka/kafka-edge.ts';
import type { KafkaEdge } from '../kafka/kafka-edge.ts';
import { replayProgress } from './replay-range.ts';
import type { ReplayRange } from './replay-range.ts';
import { replayRequest, resolveRange, selectScorers } from './replay.ts';
import type { ReplayOptions, ReplayProgress } from './replay.ts';

export type ScorerEstimate = { eligible: number; skipped: number; failed: number; judgeCalls: number; inputTokens: number; outputTokens: number; cost: number };

export type DryRunReport = {
  range: ReplayRange;
  /** Run messages read in the range (including invalid ones and Scorestream's own). */
  runs: number;
  currency: string;
  byScorer: Map<string, ScorerEstimate>;
};

type ModelObject = Exclude<LanguageModel, string>;

/** Judge models as the dry run sees them: every model, by id or object, answered by an estimating stand-in. */
function estimatingServices(options: ReplayOptions): ScorerServices {
  const { config } = options;
  const estimate = config.pricing.estimate;
  const standIns = new Map<string, ModelObject>();
  const standIn = (model: { provider?: unknown; modelId: string }): ModelObject => {
    const provider = typeof model.provider === 'string' ? model.provider : 'model';
    const key = `${provider}:${model.modelId}`;
    let found = standIns.get(key);
    if (found === undefined) standIns.set(key, (found = createEstimatingModel({ provider, modelId: model.modelId }, estimate)));
    return found;
  };
  return {
    // Resolving an id only builds a model object (no request), which gives the stand-in its identity.
    models: {
      languageModel(id: string) {
        const real = config.judge?.models?.languageModel(id);
        return standIn(typeof real === 'object' && real !== null ? real : { modelId: id });
      },
    },
    prepareModel: (model) => standIn(model),
    limitDecisionCall: () => Promise.reject(new Error('a dry run does not estimate classifier decision calls')),
    judgeCalls: createJudgeSpend({ pricing: config.pricing, now: Date.now }).gate,
  };
}

function addJudgeUsage(estimate: ScorerEstimate, judge: JudgeResults | undefined): void {
  for (const step of Object.values(judge ?? {})) {
    for (const execution of step?.executions ?? []) {
      estimate.judgeCalls += execution.modelCallCount;
      estimate.inputTokens += execution.usage?.inputTokens ?? 0;
      estimate.outputTokens += execution.usage?.outputTokens ?? 0;
      estimate.cost += execution.cost?.amount ?? 0;
    }
  }
}

export async function dryRunReplay(options: ReplayOptions): Promise<DryRunReport> {
  const { config } = options;
  const bindings = selectScorers(config, options.scorers);
  const request = replayRequest(config, options);
  const edge = options.edge ?? createKafkaEdge(config.kafka, { log: options.logger });
  try {
    return await dryRun(edge, options, bindings, request);
  } finally {
    if (options.edge === undefined) await edge.close();
  }
}

async function dryRun(edge: KafkaEdge, options: ReplayOptions, bindings: ReturnType<typeof selectScorers>, request: ReturnType<typeof replayRequest>): Promise<DryRunReport> {
  const { config, logger } = options;
  const { range } = await resolveRange(edge, config, request, false, logger);
  const services = estimatingServices(options);
  const tracer = trace.getTracer('scorestream-dry-run'); // no spans are wanted; without an SDK this is a no-op
  const byScorer = new Map(bindings.map((binding) => [binding.scorerId, { eligible: 0, skipped: 0, failed: 0, judgeCalls: 0, inputTokens: 0, outputTokens: 0, cost: 0 }]));
  const reached = new Map(range.partitions.map(({ partition, start }) => [partition, start]));
  const report: DryRunReport = { range, runs: 0, currency: config.pricing.currency, byScorer };
  const progress = (): ReplayProgress => replayProgress(range, reached);
  options.onProgress?.(progress());
  if (progress().finished) return report;

  // The range, read group-less (kafka/read-range.ts): nothing committed, no group to delete.
  const read = edge.readRange({
    partitions: range.partitions.filter(({ start, end }) => end > start).map(({ partition }) => ({ topic: request.topic, partition })),
    from: { offsets: range.partitions.filter(({ start, end }) => end > start).map(({ partition, start }) => ({ topic: request.topic, partition, offset: BigInt(start) })) },
    until: 'follow',
    onBatch: async (topic, partition, messages) => {
      const end = range.partitions.find((candidate) => candidate.partition === partition)?.end ?? 0;
      for (const message of messages) {
        const offset = Number(message.offset);
        if (offset >= end || offset < (reached.get(partition) ?? 0)) continue;
        report.runs += 1;
        await estimateMessage(message, { topic, partition, offset: message.offset });
        reached.set(partition, offset + 1);
      }
      const now = progress();
      options.onProgress?.(now);
      if (now.finished) void read.stop();
    },
  });
  await read.done;
  return report;

  async function estimateMessage(message: ConsumedMessage, source: { topic: string; partition: number; offset: string }): Promise<void> {
    if (isOwnOutput(message.headers) || (message.value?.length ?? 0) > config.maxMessageBytes) return;
    const decoded = decodeAgentRunEvent(message.value);
    if (!decoded.success || isScorestreamRun(decoded.data.metadata)) return;
    const runTrace = runTraceContext(untracedMessage(message), decoded.data);
    const scoring = await settleOutcomes(scoreRunEvent(collectRunFacts(decoded.data, source, runTrace.facts), { bindings, tracer, services, traceSampling: config.traceSampling }));
    for (const record of scoring.records) {
      const estimate = byScorer.get(record.scorerId)!;
      estimate.eligible += 1;
      if (record.status === 'failed') estimate.failed += 1;
      addJudgeUsage(estimate, record.judge);
    }
    for (const decision of scoring.decisions) byScorer.get(decision.scorerId)!.skipped += 1;
  }
}
