// A source's job, done: down through the core once, and back as outcomes that the emitter turns
// into records. The core (src/pipeline/) returns one promise per binding; each outcome goes out
// as soon as its binding is done (a fast code scorer's record does not wait for a slow judge).
//   run      Scorestream's own work is skipped (the loop guard's second half); else every binding
//            is decided and scored (scoreRunEvent);
//   retry    the pair is scored again (scoreRetry);
//   no-run   a trace without a run: one skip decision per binding.
// Resolves once every record of the job was accepted by its message's output.
import { buildDecisionRecord } from '../src/pipeline/build-decision-record.ts';
import { collectRunFacts } from '../src/pipeline/run-facts.ts';
import { scoreRetry } from '../src/pipeline/score-retry.ts';
import { scoreRunEvent } from '../src/pipeline/score-run-event.ts';
import type { ScoreRunEventOptions } from '../src/pipeline/score-run-event.ts';
import type { ScoringOutcome } from '../src/pipeline/scoring-outcome.ts';
import { spanTraceContext } from '../otel/run-trace-context.ts';
import { isScorestreamRun } from './loop-guard.ts';
import type { MessageContext } from './message-context.ts';
import type { RecordEmitter } from './record-emitter.ts';
import type { MessageHandle, PerformJob, SourceJob } from './run-source.ts';

export function createJobRunner(context: MessageContext, emitter: RecordEmitter): PerformJob {
  const { config, stats } = context;
  const options = (owner: MessageHandle): Omit<ScoreRunEventOptions<unknown>, 'parentContext'> => {
    const span = owner.trace.span?.isRecording() === true ? owner.trace.span : undefined;
    return {
      bindings: config.scorers,
      links: span === undefined ? undefined : [{ context: span.spanContext() }],
      tracer: context.tracer,
      now: context.now,
      signal: context.hardStop,
      services: context.services,
      spend: context.spend,
      ...(config.retries.enabled ? { retries: config.retries } : {}),
    };
  };
  const emitAll = (outcomes: ReadonlyArray<Promise<ScoringOutcome>>, owner: MessageHandle, eventTime: number) => {
    const where = { source: owner.source, eventTime };
    return Promise.all(outcomes.map((outcome) => outcome.then((settled) => emitter.emit(settled, owner.output, where)))).then(() => undefined);
  };

  return (job: SourceJob, owner: MessageHandle): Promise<void> => {
    const span = owner.trace.span?.isRecording() === true ? owner.trace.span : undefined;
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
        const facts = collectRunFacts(event, job.source, job.trace.facts);
        return emitAll(scoreRunEvent(facts, { ...options(owner), parentContext: job.trace.context }), owner, Date.parse(event.timestamp));
      }
      case 'retry': {
        const { retry } = job;
        stats.retriesAttempted += 1;
        span?.setAttribute('scorestream.run.id', retry.runId);
        const facts = collectRunFacts(retry.event, retry.source, retry.trace);
        // No links: the retry's score span is a child of the run's span, beside the first attempt's.
        const outcome = scoreRetry(facts, retry, { ...options(owner), links: undefined, parentContext: spanTraceContext(retry.trace).context });
        return emitAll([outcome], owner, Date.parse(retry.event.timestamp));
      }
      case 'no-run': {
        const decidedAt = new Date(context.now()).toISOString();
        const outcomes = config.scorers.map((binding): Promise<ScoringOutcome> => {
          const pair = { runId: job.traceId, scorerId: binding.scorerId, scorerVersion: binding.version, trace: { traceId: job.traceId }, source: job.source };
          return Promise.resolve({ kind: 'skipped', decision: buildDecisionRecord(pair, { decision: 'skipped', reason: job.reason, detail: job.detail }, decidedAt) });
        });
        return emitAll(outcomes, owner, Number.NaN);
      }
    }
  };
}
