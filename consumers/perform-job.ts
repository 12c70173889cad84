// A source's job, done: down through the core once, and back as outcomes that the emitter turns
// into records. The core (src/engine/pipeline/) returns one promise per binding; each outcome goes out
// as soon as its binding is done (a fast code scorer's record does not wait for a slow judge).
//   run      Scorestream's own work is skipped (the loop guard's second half); else every binding
//            is decided and scored (scoreRunEvent);
//   retry    the pair is scored again (scoreRetry);
//   rescore  a pair scored again for a feedback (docs/feedback.md, re-scoring): admitted by its
//            binding's `rescoreOn` (else only counted), its run event read back from the runs
//            topic by the judged record's position (a `run_unavailable` decision when it is not
//            there), then scored (scoreRescore) and emitted like any outcome;
//   no-run   a trace without a run: one skip decision per binding (traceWithoutRun); only counted
//            when no decisions topic would publish them.
// With thread scorers bound (docs/threads.md), a run with a thread is re-keyed once all its
// outcomes are out: its turn, with its run scores, to `{runs}-by-thread` (buildThreadTurn); and
//   thread-end  an explicit end read beside the runs is forwarded there too;
//   thread-close  a close of a by-thread partition's thread state (thread-source.ts), as data: its
//                 version scored here like a run (threadCloseOutcome), or its decision;
//   thread-state  that partition's changelog writes. The thread source sends a step's writes
//                 only once its closes' records were accepted (carry-out-thread-steps.ts), so that
//                 a state saying "scored" never outlives a crash that lost the score.
// Resolves once every record of the job was accepted by its message's output.
import { collectRunFacts } from '../src/engine/pipeline/run-facts.ts';
import { scoreRetry } from '../src/engine/pipeline/score-retry.ts';
import { admitRescore, rescoreUnavailable, scoreRescore } from '../src/engine/pipeline/score-rescore.ts';
import type { RescoreRequest } from '../src/kit/contracts/rescore-request.ts';
import { decodeAgentRunEvent } from '../src/kit/contracts/parse.ts';
import { readRunBack } from './read-run-back.ts';
import { runTraceContext, untracedMessage } from './message-trace.ts';
import { scoreRunEvent } from '../src/engine/pipeline/score-run-event.ts';
import type { ScoreRunEventOptions } from '../src/engine/pipeline/score-run-event.ts';
import type { ScoringOutcome } from '../src/engine/pipeline/scoring-outcome.ts';
import { traceWithoutRun } from '../src/engine/pipeline/trace-without-run.ts';
import type { RunFacts } from '../src/engine/pipeline/run-facts.ts';
import { buildThreadTurn } from '../src/engine/threads/build-thread-turn.ts';
import { threadCloseOutcome } from '../src/engine/threads/score-thread-close.ts';
import { spanTraceContext } from '../otel/run-trace-context.ts';
import { isScorestreamRun } from './loop-guard.ts';
import type { MessageContext } from './message-context.ts';
import type { RecordEmitter } from './emitter/record-emitter.ts';
import type { JobOwner, PerformJob, SourceJob } from './run-source.ts';
import { isoTime } from '../src/kit/contracts/iso-time.ts';
import { retryWayIn, runWayIn, untimedWayIn } from '../src/engine/pipeline/arrival-latency.ts';
import type { RunArrival } from '../src/engine/pipeline/arrival-latency.ts';

/** What a job needs besides itself: the shared context and the one way out. */
export type JobDependencies = { readonly context: MessageContext; readonly emitter: RecordEmitter };

/** The consumer's PerformJob (run-source.ts) over `performJob`. */
export function createJobRunner(context: MessageContext, emitter: RecordEmitter): PerformJob {
  const dependencies = { context, emitter };
  return (job, owner) => performJob(job, owner, dependencies);
}

function scoringOptions(owner: JobOwner, context: MessageContext): Omit<ScoreRunEventOptions<unknown>, 'parentContext'> {
  const span = owner.trace?.span?.isRecording() === true ? owner.trace.span : undefined;
  return {
    bindings: context.config.scorers,
    links: span === undefined ? undefined : [{ context: span.spanContext() }],
    tracer: context.tracer,
    now: context.now,
    signal: context.hardStop,
    services: context.services,
    spend: context.spend,
    traceSampling: context.config.traceSampling,
    ...(context.config.retries.enabled ? { retries: context.config.retries } : {}),
    ...(context.codeScores === undefined ? {} : { codeScores: context.codeScores }),
    ...(context.batchJudge === undefined ? {} : { batchJudge: context.batchJudge }),
  };
}

/**
 * A run's readings on its way in, on the context's clock: its own message's, or — assembled from
 * several (an OTLP trace) — the first one's, the assembly ending now. (A replay's are not read:
 * its events are old by design, and their age is no latency of the pipeline.)
 */
function runArrivalOf(timestamp: string, job: Extract<SourceJob, { kind: 'run' }>, owner: JobOwner, context: MessageContext): RunArrival {
  const first = job.assembled === undefined ? owner.arrival : job.assembled.first;
  return { eventTimeMs: Date.parse(timestamp), fetchedAt: first?.fetchedAt, slotAt: first?.slotAt, assembledAt: job.assembled === undefined ? undefined : context.now() };
}

/** Each outcome to the emitter as soon as it settles; resolves once all were accepted. */
function emitEach(outcomes: ReadonlyArray<Promise<ScoringOutcome>>, owner: JobOwner, eventTime: number, emitter: RecordEmitter): Promise<void> {
  const where = { source: owner.source, eventTime };
  return Promise.all(outcomes.map((outcome) => outcome.then((settled) => emitter.emit(settled, owner.output, where)))).then(() => undefined);
}

/** Each outcome out as it settles; once all were accepted, the run's turn to its thread's partition (when it has a thread). */
async function emitAndRekey(outcomes: ReadonlyArray<Promise<ScoringOutcome>>, facts: RunFacts, owner: JobOwner, { context, emitter }: JobDependencies): Promise<void> {
  const where = { source: owner.source, eventTime: Date.parse(facts.event.timestamp) };
  const settled = await Promise.all(outcomes.map((outcome) => outcome.then(async (done) => (await emitter.emit(done, owner.output, where), done))));
  const records = settled.flatMap((done) => (done.kind === 'record' ? [done.record] : []));
  const decisions = settled.flatMap((done) => (done.kind === 'record' ? [] : [done.decision]));
  const { threads } = context.config;
  const turn = buildThreadTurn(facts, { records, decisions }, { idPath: threads.idPath, maxTurnBytes: threads.maxTurnBytes });
  if (turn !== undefined) await emitter.emit({ kind: 'thread-turn', key: turn.key, json: turn.json }, owner.output, where);
}

/** Outcomes known at once (a trace without run): emitted now; a promise only when one has to be awaited. */
function emitNow(outcomes: readonly ScoringOutcome[], owner: JobOwner, emitter: RecordEmitter): Promise<void> {
  const where = { source: owner.source, eventTime: Number.NaN };
  const pending: Promise<void>[] = [];
  for (const outcome of outcomes) {
    const emitting = emitter.emit(outcome, owner.output, where);
    if (emitting !== undefined) pending.push(emitting);
  }
  return pending.length === 0 ? Promise.resolve() : Promise.all(pending).then(() => undefined);
}

/** One job through the core and out through the emitter; resolves once every record of it was accepted by `owner.output`. */
export function performJob(job: SourceJob, owner: JobOwner, dependencies: JobDependencies): Promise<void> {
  const { context, emitter } = dependencies;
  const { config, stats } = context;
  const span = owner.trace?.span?.isRecording() === true ? owner.trace.span : undefined;
  switch (job.kind) {
    case 'run': {
      const { event } = job;
      span?.setAttribute('scorestream.run.id', event.runId);
      if (isScorestreamRun(event.metadata)) {
        stats.countSkip('scorestream_origin');
        span?.setAttribute('scorestream.skip.reason', 'scorestream_origin');
        context.logger.debug({ source: job.source, runId: event.runId }, "skipped a run event that describes Scorestream's own work (metadata.source or tag)");
        return Promise.resolve();
      }
      // Counted whatever the policy (docs/observability.md, trace sampling): how much of the traffic a trace backend misses.
      if (job.trace.facts.sampled === false) stats.unsampledTraces += 1;
      const facts = collectRunFacts(event, job.source, job.trace.facts);
      const wayIn = context.replay === undefined ? runWayIn(runArrivalOf(event.timestamp, job, owner, context)) : untimedWayIn(owner.arrival?.slotAt);
      const outcomes = scoreRunEvent(facts, { ...scoringOptions(owner, context), parentContext: job.trace.context, wayIn });
      // A replay re-scores runs; their threads are the live service's.
      if (config.threadScorers.length > 0 && context.replay === undefined) return emitAndRekey(outcomes, facts, owner, dependencies);
      return emitEach(outcomes, owner, Date.parse(event.timestamp), emitter);
    }
    case 'retry': {
      const { retry } = job;
      if (job.fromBatch === true) stats.batch.resumed += 1;
      else stats.retriesAttempted += 1;
      span?.setAttribute('scorestream.run.id', retry.runId);
      // No links: the retry's score span is a child of the run's span, beside the first attempt's.
      const wayIn = retryWayIn(retry, owner.arrival?.slotAt, job.fromBatch === true);
      const outcome = scoreRetry(collectRunFacts(retry.event, retry.source, retry.trace), retry, { ...scoringOptions(owner, context), links: undefined, parentContext: spanTraceContext(retry.trace).context, wayIn });
      return emitEach([outcome], owner, Date.parse(retry.event.timestamp), emitter);
    }
    case 'rescore':
      return performRescore(job.request, owner, dependencies);
    case 'no-run': {
      // Nine in ten OTLP traces hold no run. Without a decisions topic the emitter would only count
      // each binding's skip (RecordEmitter.emit): so count them here, without building the records.
      if (config.topics.decisions === undefined) {
        for (let binding = 0; binding < config.scorers.length; binding += 1) stats.countSkip(job.reason);
        return Promise.resolve();
      }
      return emitNow(traceWithoutRun(job, config.scorers, isoTime(context.now())), owner, emitter);
    }
    case 'thread-end': {
      if (config.threadScorers.length === 0 || context.replay !== undefined) {
        stats.countSkip('no_thread_scorers');
        return Promise.resolve();
      }
      return emitter.emit({ kind: 'thread-turn', key: job.key, json: job.json }, owner.output, { source: owner.source, eventTime: Number.NaN }) ?? Promise.resolve();
    }
    case 'thread-close': {
      stats.threads.closesByReason.set(job.closedBy, (stats.threads.closesByReason.get(job.closedBy) ?? 0) + 1);
      // Scored like a run (its own span, judges, budgets, evidence), its record out through the emitter.
      const outcome = threadCloseOutcome(job.work, { tracer: context.tracer, now: context.now, signal: context.hardStop, services: context.services, spend: context.spend, traceSampling: config.traceSampling, bindings: config.threadScorers, ...(context.codeScores === undefined ? {} : { codeScores: context.codeScores }) });
      return outcome.then((settled) => emitter.emit(settled, owner.output, { source: owner.source, eventTime: Number.NaN }));
    }
    case 'thread-state':
    case 'batch-state':
      return emitter.emit({ kind: job.kind, writes: job.writes, partition: job.partition }, owner.output, { source: owner.source, eventTime: Number.NaN }) ?? Promise.resolve();
  }
}

/** A re-score request: admitted, its run read back, scored and emitted; or counted (and decided) as refused. */
async function performRescore(request: RescoreRequest, owner: JobOwner, { context, emitter }: JobDependencies): Promise<void> {
  const { stats, logger } = context;
  owner.trace?.span?.setAttribute('scorestream.run.id', request.runId);
  const admission = admitRescore(request, context.config.scorers);
  if (!admission.admitted) {
    stats.countRescore(admission.refusal);
    logger.debug({ source: owner.source, runId: request.runId, scorerId: request.scorerId, feedbackId: request.rescore.feedbackId, refusal: admission.refusal }, 'a re-score request was refused: its binding does not re-score on this feedback');
    return;
  }
  const where = { source: owner.source, eventTime: Number.NaN };
  const unavailable = async (detail: string) => {
    stats.countRescore('run_unavailable');
    logger.warn({ source: owner.source, runId: request.runId, scorerId: request.scorerId, feedbackId: request.rescore.feedbackId, run: request.source }, `a re-score cannot read its run back: ${detail}`);
    await emitter.emit(rescoreUnavailable(request, detail, new Date(context.now()).toISOString()), owner.output, where);
  };
  if (context.fetchRun === undefined) return unavailable('this service reads no run events back');
  const fetched = await readRunBack(context.fetchRun, request.source, owner.source, context);
  if (!fetched.found) return unavailable(fetched.detail);
  const decoded = decodeAgentRunEvent(fetched.message.value);
  const at = `${request.source.topic}[${request.source.partition}]@${request.source.offset}`;
  if (!decoded.success) return unavailable(`the message at ${at} is not a run event (${decoded.code})`);
  if (decoded.data.runId !== request.runId) return unavailable(`the message at ${at} is run '${decoded.data.runId.slice(0, 200)}', not '${request.runId.slice(0, 200)}'`);
  stats.countRescore('admitted');
  const trace = runTraceContext(untracedMessage(fetched.message), decoded.data);
  const facts = collectRunFacts(decoded.data, request.source, trace.facts);
  // Its run event is read back, old by design: only its wait to start (the read included) is timed.
  const outcome = scoreRescore(facts, request, admission.binding, { ...scoringOptions(owner, context), parentContext: trace.context, wayIn: untimedWayIn(owner.arrival?.slotAt) });
  await emitEach([outcome], owner, Number.NaN, emitter);
}
