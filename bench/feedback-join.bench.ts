// The feedback join's state at its bound (docs/feedback.md, the join's bounds): `maxRuns` runs
// held, each with one scored record (and the run event's position it carries, for re-scores) and one feedback record of realistic size (a 200-character
// comment), and the ledger with `maxPairs` pairs over 24 windows. Prints the heap after GC.
//   node --expose-gc --conditions=scorestream-source bench/feedback-join.bench.ts [maxRuns] [maxPairs]
import { AgreementLedger } from '../src/engine/agreement/agreement-ledger.ts';
import { buildAgreementPair } from '../src/engine/agreement/build-agreement-pair.ts';
import { FeedbackJoin } from '../src/engine/agreement/feedback-join.ts';
import { feedbackIdFor } from '../src/kit/contracts/feedback-id.ts';
import { scoreIdFor } from '../src/kit/contracts/score-id.ts';

const maxRuns = Number(process.argv[2] ?? 100_000);
const maxPairs = Number(process.argv[3] ?? 500_000);
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with node --expose-gc');
const heap = () => {
  gc();
  return process.memoryUsage().heapUsed;
};
const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;

const before = heap();
const join = new FeedbackJoin({ ttlMs: 86_400_000, maxRuns, maxPerRun: 32 });
const now = Date.now();
for (let index = 0; index < maxRuns; index += 1) {
  const runId = `run-${index.toString(36)}-${'x'.repeat(20)}`;
  // The run event's position, as the service decodes it from each score record's JSON (its own strings per record).
  const source = JSON.parse(`{"topic":"agent-runs","partition":${index % 12},"offset":"${1_000_000 + index}","timestamp":"${new Date(now + index).toISOString()}"}`) as { topic: string; partition: number; offset: string; timestamp: string };
  join.addScore({ scoreId: scoreIdFor({ runId, scorerId: 'completeness', scorerVersion: '1' }), runId, scorerId: 'completeness', scorerVersion: '1', score: 0.7, entity: { type: 'agent', id: 'support-agent' }, metadata: { tenantId: `tenant-${index % 50}` }, source }, now, now);
  const target = { type: 'run' as const, runId };
  join.addFeedback({ schemaVersion: 1, feedbackId: feedbackIdFor({ target, name: 'thumbs', source: 'end_user', submitterId: `user-${index}` }), target, source: 'end_user', submitter: { id: `user-${index}` }, name: 'thumbs', value: index % 3 !== 0, comment: 'c'.repeat(200), submittedAt: new Date(now).toISOString() }, now, now);
}
const afterJoin = heap();
console.log(`join: ${join.stats().runs} runs, ${join.stats().scores} scores, ${join.stats().feedback} feedback: ${mb(afterJoin - before)} (${Math.round((afterJoin - before) / maxRuns)} B per run)`);

const ledger = new AgreementLedger({ windowMs: 3_600_000, retentionMs: 86_400_000, maxPairs, maxWindows: 10_000 });
for (let index = 0; index < maxPairs; index += 1) {
  const runId = `run-${index.toString(36)}`;
  const pair = buildAgreementPair(
    { feedback: { schemaVersion: 1, feedbackId: `f-${index}`, target: { type: 'run', runId }, source: 'end_user', name: 'thumbs', value: index % 3 !== 0, submittedAt: '' }, score: { scoreId: `s-${index}`, runId, scorerId: `scorer-${index % 7}`, scorerVersion: '1', score: 0.7 } },
    new Date(now - (index % 24) * 3_600_000).toISOString(),
  )!;
  ledger.record(pair, now);
}
const afterLedger = heap();
console.log(`ledger: ${ledger.stats().pairs} pairs, ${ledger.stats().windows} windows: ${mb(afterLedger - afterJoin)} (${Math.round((afterLedger - afterJoin) / maxPairs)} B per pair)`);
console.log(`rss ${mb(process.memoryUsage().rss)}`);
