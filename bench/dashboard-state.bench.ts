// The dashboard's state alone (no Kafka, no HTTP): score records and decisions fed straight into
// DashboardState as fast as they parse, over a 6-hour window with records spread across it, and
// the heap after a full GC every tenth of the way — the memory the bounds allow, without the
// garbage and network buffers that RSS also holds. 7 scorers (two of them in two versions, three
// with pass/fail verdicts) × 4 agents × 5 tenants, a quarter of the records with a 600-character
// judge prompt; skip decisions carry the run's agent and tenant; the feedback view's agreement
// records arrive beside them (a pair per 20 records, a third of them disagreeing with a
// 200-character comment, and a window summary per scorer version every 2 minutes).
// Usage: node --expose-gc bench/dashboard-state.bench.ts [records]
import { DEFAULT_LIMITS } from '../dashboard/dashboard-limits.ts';
import { DashboardState } from '../dashboard/dashboard-state.ts';
import { bucketWidthFor } from '../dashboard/duration.ts';
import { jaegerLink } from '../dashboard/trace-link.ts';
import { parseAgreementRecord, parseDecisionRecord, parseScoreRecord } from '../src/kit/contracts/parse.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with node --expose-gc: heap figures are taken after a full collection');
const total = Number(process.argv[2] ?? 300_000);
const hour = 3_600_000;
const windowMs = 6 * hour;
const now = Date.now();
const state = new DashboardState({ ...DEFAULT_LIMITS, windowMs, bucketMs: bucketWidthFor(windowMs) }, { now: () => now, traceLink: jaegerLink() });
const scorers = ['completeness', 'tool-error-rate', 'keyword-coverage', 'tool-call-accuracy', 'answer-relevancy', 'toxicity', 'support-tone'];
const agents = ['support-agent', 'research-agent', 'coding-assistant', 'trip-planner'];
const tenants = ['acme', 'globex', 'initech', 'umbrella', 'hooli'];
const prompt = 'Rate how relevant the answer is to the question. '.repeat(12);
const versioned = new Set(['answer-relevancy', 'toxicity']);
const withVerdicts = new Set(['answer-relevancy', 'toxicity', 'support-tone']);
const comment = 'The answer talks about shipping times but I asked how to return a damaged item. '.repeat(3).slice(0, 200);
const windowMs2 = 120_000;
const at = (index: number) => new Date(now - windowMs + 60_000 + (index / total) * (windowMs - 120_000)).toISOString();
const heapMb = () => {
  gc();
  return Math.round(process.memoryUsage().heapUsed / 1024 / 1024);
};

const baseline = heapMb();
console.log(`| records fed | heap after GC (MB, above the ${baseline} MB baseline) | state |\n|---:|---:|---|`);
const started = performance.now();
for (let index = 0; index < total; index += 1) {
  const status = index % 20 === 0 ? 'failed' : index % 10 === 5 ? 'not_scorable' : 'scored';
  const raw = {
    schemaVersion: 1,
    scoreId: `score-${index}`,
    status,
    ...(status === 'scored' ? { score: (index % 101) / 100, reason: 'the answer covers every point of the question' } : {}),
    ...(status === 'not_scorable' ? { notScorable: { step: 'preprocess', reason: 'no tool calls' } } : {}),
    ...(status === 'failed' ? { error: { name: 'APICallError', message: 'timeout', failedStep: 'analyze', completedSteps: ['preprocess'], retryable: true } } : {}),
    runId: `run-${index}`,
    scorerId: scorers[index % scorers.length],
    ...(versioned.has(scorers[index % scorers.length]!) ? { scorerVersion: index % 2 === 0 ? '1' : '2' } : {}),
    ...(status === 'scored' && withVerdicts.has(scorers[index % scorers.length]!) ? { verdict: (index % 101) / 100 >= 0.5 ? 'pass' : 'fail' } : {}),
    entity: { type: 'agent', id: agents[Math.floor(index / 7) % agents.length] },
    metadata: { tenantId: tenants[Math.floor(index / 28) % tenants.length] },
    steps: {},
    prompts: index % 4 === 3 ? { generateScore: prompt } : {},
    trace: { traceId: index.toString(16).padStart(32, '0'), spanId: index.toString(16).padStart(16, '0') },
    source: { topic: 'agent-runs', partition: index % 6, offset: String(index) },
    scoredAt: at(index),
    durationMs: 3,
  };
  const parsed = parseScoreRecord(raw);
  if (!parsed.success) throw new Error(parsed.problems[0]?.message);
  state.ingestScore(parsed.data, JSON.stringify(raw).length);
  if (index % 4 === 0) {
    const decision = parseDecisionRecord({ schemaVersion: 1, runId: `run-${index}-skip`, scorerId: scorers[(index + 4) % scorers.length], entity: raw.entity, metadata: raw.metadata, decision: 'skipped', reason: 'sampling', source: raw.source, decidedAt: at(index) });
    if (decision.success) state.ingestDecision(decision.data);
  }
  if (index % 20 === 1 && status === 'scored') {
    const agree = index % 60 !== 1;
    const pair = parseAgreementRecord({
      schemaVersion: 1, kind: 'pair', agreementId: `agreement-${index}`, feedbackId: `feedback-${index}`, scoreId: raw.scoreId, runId: raw.runId, scorerId: raw.scorerId, entity: raw.entity, metadata: raw.metadata,
      judge: { score: raw.score, label: 'pass' }, human: { name: 'thumbs', value: agree, label: agree ? 'pass' : 'fail', source: 'end_user', submitter: { id: `user-${index % 500}` }, ...(agree ? {} : { comment }) }, agree, measuredAt: at(index),
    });
    if (!pair.success) throw new Error(pair.problems[0]?.message);
    state.ingestAgreement(pair.data);
  }
  const windowEnd = Date.parse(at(index));
  if (index > 0 && Math.floor(windowEnd / windowMs2) !== Math.floor(Date.parse(at(index - 1)) / windowMs2)) {
    for (const scorerId of scorers) {
      for (const version of versioned.has(scorerId) ? ['1', '2'] : [undefined]) {
        const end = Math.floor(windowEnd / windowMs2) * windowMs2;
        const window = parseAgreementRecord({
          schemaVersion: 1, kind: 'window', scorerId, ...(version === undefined ? {} : { scorerVersion: version }), windowStart: new Date(end - windowMs2).toISOString(), windowEnd: new Date(end).toISOString(),
          n: 40, agreements: 30, accuracy: 0.75, kappa: 0.5, weightedKappa: { linear: 0.55, quadratic: 0.6 }, confusion: { labels: ['warm', 'neutral', 'curt'], counts: [[10, 2, 0], [3, 8, 1], [0, 4, 12]] }, measuredAt: new Date(end).toISOString(),
        });
        if (!window.success) throw new Error(window.problems[0]?.message);
        state.ingestAgreement(window.data);
      }
    }
  }
  if ((index + 1) % (total / 10) === 0) console.log(`| ${index + 1} | ${heapMb() - baseline} | ${JSON.stringify(state.counts())} |`);
}
const seconds = (performance.now() - started) / 1000;
console.log(`\n${total} records (and ${total / 4} decisions) in ${seconds.toFixed(1)} s: ${Math.round(total / seconds)} records/s through parse and state (GC pauses for the table included); snapshot ${Math.round(JSON.stringify(state.snapshot()).length / 1024)} kB`);
