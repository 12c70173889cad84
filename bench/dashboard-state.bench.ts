// The dashboard's state alone (no Kafka, no HTTP): score records and decisions fed straight into
// DashboardState as fast as they parse, over a 6-hour window with records spread across it, and
// the heap after a full GC every tenth of the way — the memory the bounds allow, without the
// garbage and network buffers that RSS also holds. 7 scorers × 4 agents × 5 tenants, a quarter of
// the records with a 600-character judge prompt.
// Usage: node --expose-gc bench/dashboard-state.bench.ts [records]
import { DashboardState, DEFAULT_LIMITS } from '../dashboard/dashboard-state.ts';
import { bucketWidthFor } from '../dashboard/duration.ts';
import { jaegerLink } from '../dashboard/trace-link.ts';
import { parseDecisionRecord, parseScoreRecord } from '../src/contracts/parse.ts';

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
    const decision = parseDecisionRecord({ schemaVersion: 1, runId: `run-${index}-skip`, scorerId: scorers[(index + 4) % scorers.length], decision: 'skipped', reason: 'sampling', source: raw.source, decidedAt: at(index) });
    if (decision.success) state.ingestDecision(decision.data);
  }
  if ((index + 1) % (total / 10) === 0) console.log(`| ${index + 1} | ${heapMb() - baseline} | ${JSON.stringify(state.counts())} |`);
}
const seconds = (performance.now() - started) / 1000;
console.log(`\n${total} records (and ${total / 4} decisions) in ${seconds.toFixed(1)} s: ${Math.round(total / seconds)} records/s through parse and state (GC pauses for the table included); snapshot ${Math.round(JSON.stringify(state.snapshot()).length / 1024)} kB`);
