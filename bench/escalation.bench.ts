// Escalation (docs/scorers.md, escalation; docs/benchmarks.md): judge calls and recall of truly bad
// runs, judging every run against judging only where a cheap check escalates, on a labelled
// synthetic stream through the real service and a real broker. Labels, the check and the judge
// are hash-driven, so both modes see the same stream and the same judge:
//   - 10% of runs are truly bad;
//   - the cheap check (a code scorer, `pass: { atLeast: 0.5 }`) fails 97% of the bad runs and 5.6%
//     of the good ones: it flags about 15% of runs;
//   - the judge (an LLM-judge scorer on a mock model) is right on 95% of runs.
// Mode "judge every run" binds the judge plainly; mode "escalation" with
// `escalate: { when: <the check failed>, sample: 0.05 }`. The issue's targets: judge calls fall by
// at least 75%, and the share of truly bad runs judged stays at least 95% of before. Also checked:
// every run not escalated has its `not_escalated` decision on the decisions topic.
//   node bench/escalation.bench.ts [--runs 4000]       (npm run bench:escalation)
import { createHash } from 'node:crypto';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { ensureLocalBroker, quietKafka } from '../local/kafka/index.ts';
import { generateSampleRuns } from '../producers/sample/index.ts';
import { resolveConfig } from '../src/engine/config/resolve-config.ts';
import type { ScorerBindingInput } from '../src/engine/config/config-types.ts';
import type { DecisionRecord } from '../src/kit/contracts/decision-record.ts';
import type { ScoreRecord } from '../src/kit/contracts/score-record.ts';
import { createScorer } from '../src/kit/scorer/create-scorer.ts';
import { mockJudge } from '../src/kit/testing/mock-judge.ts';
import { startService } from '../service/start-service.ts';
import { createTopics, deleteTopicsWithPrefix, produceBacklog } from './pipeline/produce-backlog.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '4000' } } });
const runCount = Number(values.runs);
const log = (line: string) => process.stderr.write(`${line}\n`);

/** A run's uniform draw in [0, 1) for one purpose: the same in both modes. */
const draw = (runId: string, purpose: string) => createHash('sha256').update(`${purpose}:${runId}`).digest().readUInt32BE(0) / 2 ** 32;
const BAD_SHARE = 0.1;
const CHECK_CATCHES_BAD = 0.97;
const CHECK_FLAGS_GOOD = 0.05 / 0.9;
const JUDGE_RIGHT = 0.95;
const isBad = (runId: string) => draw(runId, 'truth') < BAD_SHARE;
const checkFlags = (runId: string) => draw(runId, 'check') < (isBad(runId) ? CHECK_CATCHES_BAD : CHECK_FLAGS_GOOD);
const judgeSaysBad = (runId: string) => (draw(runId, 'judge') < JUDGE_RIGHT ? isBad(runId) : !isBad(runId));

const runIdOf = (run: unknown) => String((run as { runId?: unknown }).runId);
const judge = mockJudge({
  answer: (call) => {
    const runId = /run (\S+):/.exec(call.user)?.[1] ?? '';
    return { score: judgeSaysBad(runId) ? 0 : 1 };
  },
});
const toolCheck = createScorer({ id: 'tool-check', description: 'A cheap code check of the run' }).generateScore(({ run }) => (checkFlags(runIdOf(run)) ? 0 : 1));
const answerJudge = createScorer({ id: 'answer-judge', description: 'Is the answer acceptable?', judge: { model: judge, instructions: 'You audit support answers.' } }).generateScore({
  description: 'acceptable',
  createPrompt: ({ run }) => `Grade run ${runIdOf(run)}: is the answer acceptable? Answer with a score, 1 acceptable, 0 not.`,
});
const checkFailed = { op: 'eq', left: { path: 'scores.tool-check.passed' }, right: { literal: false } } as const;

const MODES = {
  'judge every run': { scorer: answerJudge, pass: { atLeast: 0.5 } },
  escalation: { scorer: answerJudge, pass: { atLeast: 0.5 }, escalate: { when: checkFailed, sample: 0.05 } },
} satisfies Record<string, ScorerBindingInput>;

type ModeResult = { calls: number; judged: Set<string>; caught: Set<string>; notEscalated: Set<string>; tiers: Map<string, number>; seconds: number };

const broker = await ensureLocalBroker({ ephemeral: true });
const kafka = quietKafka({ clientId: 'scorestream-bench-escalation', brokers: broker.brokers });
const prefix = `bench-escalation-${Date.now().toString(36)}`;
const runsTopic = `${prefix}-runs`;
const logger = pino({ level: 'silent' });
try {
  await createTopics(kafka, [{ topic: runsTopic, partitions: 6 }]);
  const runs = generateSampleRuns(runCount, { seed: 'bench-escalation', includeTraceInBody: true });
  const runIds = runs.map((run) => String(run.event.runId));
  await produceBacklog(kafka, { topic: runsTopic, count: runCount, message: (index) => ({ key: runIds[index]!, value: JSON.stringify(runs[index]!.event) }) });
  log(`produced ${runCount} labelled runs to ${runsTopic}`);

  /** Every record of a topic, up to its end as the broker reports it now. */
  let readers = 0;
  const readAll = async <Value>(topic: string): Promise<Value[]> => {
    const admin = kafka.admin();
    await admin.connect();
    const ends = await admin.fetchTopicOffsets(topic).finally(() => admin.disconnect());
    const total = ends.reduce((sum, partition) => sum + Number(partition.high) - Number(partition.low), 0);
    const read: Value[] = [];
    if (total === 0) return read;
    const consumer = kafka.consumer({ groupId: `${topic}-reader-${(readers += 1)}`, maxWaitTimeInMs: 200 });
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await new Promise<void>((resolve, reject) => {
      consumer
        .run({
          eachMessage: async ({ message }) => {
            read.push(JSON.parse(message.value!.toString()) as Value);
            if (read.length >= total) resolve();
          },
        })
        .catch(reject);
    });
    await consumer.disconnect();
    return read;
  };
  /** Run messages committed by a group: every run's records are on their topics by then (at-least-once commits after the produce). */
  const committed = async (groupId: string) => {
    const admin = kafka.admin();
    await admin.connect();
    try {
      const [entry] = await admin.fetchOffsets({ groupId, topics: [runsTopic] });
      return (entry?.partitions ?? []).reduce((sum, partition) => sum + Math.max(0, Number(partition.offset)), 0);
    } finally {
      await admin.disconnect();
    }
  };

  const measure = async (mode: keyof typeof MODES): Promise<ModeResult> => {
    const slug = mode.replaceAll(' ', '-');
    const topics = { runs: runsTopic, results: `${prefix}-${slug}-scores`, deadLetter: `${prefix}-${slug}-dlq`, decisions: `${prefix}-${slug}-decisions` };
    await createTopics(kafka, [{ topic: topics.results, partitions: 6 }, { topic: topics.deadLetter, partitions: 1 }, { topic: topics.decisions, partitions: 6 }]);
    const callsBefore = judge.calls.length;
    const started = performance.now();
    const config = resolveConfig({ kafka: { brokers: broker.brokers }, groupId: `${prefix}-${slug}`, topics, scorers: [{ scorer: toolCheck, pass: { atLeast: 0.5 } }, MODES[mode]] });
    const service = await startService({ config, logger });
    while ((await committed(config.groupId)) < runCount) await new Promise((resolve) => setTimeout(resolve, 100));
    const seconds = (performance.now() - started) / 1000;
    await service.stop();
    const all = await readAll<ScoreRecord>(topics.results);
    const decisions = await readAll<DecisionRecord>(topics.decisions);
    const judgedRecords = all.filter((record) => record.scorerId === 'answer-judge' && record.status === 'scored');
    const tiers = new Map<string, number>();
    for (const record of judgedRecords) tiers.set(record.escalation?.tier ?? 'unconditional', (tiers.get(record.escalation?.tier ?? 'unconditional') ?? 0) + 1);
    return {
      calls: judge.calls.length - callsBefore,
      judged: new Set(judgedRecords.map((record) => record.runId)),
      caught: new Set(judgedRecords.filter((record) => record.verdict === 'fail').map((record) => record.runId)),
      notEscalated: new Set(decisions.filter((decision) => decision.reason === 'not_escalated').map((decision) => decision.runId)),
      tiers,
      seconds,
    };
  };

  const before = await measure('judge every run');
  log(`judge every run: ${before.calls} judge calls in ${before.seconds.toFixed(1)} s`);
  const after = await measure('escalation');
  log(`escalation: ${after.calls} judge calls in ${after.seconds.toFixed(1)} s`);

  const bad = runIds.filter(isBad);
  const flagged = runIds.filter(checkFlags).length;
  const badIn = (runs: Set<string>) => bad.filter((runId) => runs.has(runId)).length;
  const undecided = runIds.filter((runId) => !after.judged.has(runId) && !after.notEscalated.has(runId));
  const callsFall = 1 - after.calls / before.calls;
  const judgedShare = badIn(after.judged) / badIn(before.judged);
  const caughtShare = badIn(after.caught) / badIn(before.caught);
  const mark = (ok: boolean) => (ok ? '✓' : '✗');

  console.log(`\n# escalation, ${runCount} labelled runs (${bad.length} truly bad, ${(100 * bad.length / runCount).toFixed(1)}%; the check flags ${flagged}, ${(100 * flagged / runCount).toFixed(1)}%), 6 partitions, real broker`);
  console.log('| | judge every run | escalation (sample 0.05) |\n|---|---:|---:|');
  console.log(`| judge calls | ${before.calls} | ${after.calls} |`);
  console.log(`| runs judged | ${before.judged.size} | ${after.judged.size} (escalated ${after.tiers.get('escalated') ?? 0}, sampled ${after.tiers.get('sampled') ?? 0}) |`);
  console.log(`| truly bad runs judged | ${badIn(before.judged)} of ${bad.length} | ${badIn(after.judged)} of ${bad.length} |`);
  console.log(`| truly bad runs the judge failed | ${badIn(before.caught)} | ${badIn(after.caught)} |`);
  console.log(`| not_escalated decisions | 0 | ${after.notEscalated.size} |`);
  console.log(`| seconds to score the stream | ${before.seconds.toFixed(1)} | ${after.seconds.toFixed(1)} |`);
  console.log('\n# targets');
  console.log(`- judge calls fall by ≥ 75%: ${(100 * callsFall).toFixed(1)}% ${mark(callsFall >= 0.75)}`);
  console.log(`- truly bad runs judged, after / before ≥ 95%: ${(100 * judgedShare).toFixed(1)}% ${mark(judgedShare >= 0.95)} (caught by the judge: ${(100 * caughtShare).toFixed(1)}%)`);
  console.log(`- every run not escalated has its decision: ${undecided.length === 0 ? 'yes ✓' : `no ✗ (${undecided.length} runs neither judged nor decided)`}`);
  if (callsFall < 0.75 || judgedShare < 0.95 || undecided.length > 0) process.exitCode = 1;
} finally {
  await deleteTopicsWithPrefix(kafka, prefix).catch(() => undefined);
  await broker.stop();
}
