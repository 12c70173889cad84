// Escalation through the real service, a real broker and the real provider path (an
// OpenAI-compatible judge server): the judge binding runs after the cheap check it escalates on,
// and only on the runs the check failed or its sample picked — the server counts the calls; every
// other run has its `not_escalated` decision on the decisions topic, with what was read; the
// records and the `scorestream.escalations` metric say which tier decided. A config whose
// escalations form a cycle stops `scorestream start` at load, exit 2, naming the cycle.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { DecisionRecord } from '../../../src/kit/contracts/decision-record.ts';
import type { ScoreRecord } from '../../../src/kit/contracts/score-record.ts';
import { createOpenAICompatibleJudgeProvider } from '../../../src/kit/judge/openai-compatible.ts';
import { createScorer } from '../../../src/kit/scorer/create-scorer.ts';
import { parseAgentRunEvent } from '../../../src/kit/contracts/parse.ts';
import { collectRunFacts } from '../../../src/engine/pipeline/run-facts.ts';
import { escalationSampleKey } from '../../../src/engine/escalation/decide-escalation.ts';
import { samplingBucket } from '../../../src/engine/eligibility/sampling.ts';
import { judgeScorer } from '../../fixtures/scorers.ts';
import { startFaultJudgeServer } from '../../helpers/fault-judge-server.ts';
import { testBrokers } from '../../helpers/kafka.ts';
import { testRun } from '../../helpers/runs.ts';
import { produceRaw, readRecords, startTestService, useServiceTopics } from '../../helpers/service.ts';
import { installTestTelemetry, metricValue } from '../../helpers/spans.ts';
import type { TelemetryCapture } from '../../helpers/spans.ts';

let capture: TelemetryCapture;
beforeAll(async () => {
  capture = await installTestTelemetry();
});
afterAll(async () => {
  await capture.uninstall();
});

/** The cheap tier: fails a run whose id ends in "-bad". */
const toolCheck = createScorer({ id: 'tool-check', description: 'A cheap code check' }).generateScore(({ run }) => (String((run as { runId?: string }).runId).endsWith('-bad') ? 0 : 1));
const checkFailed = { op: 'eq', left: { path: 'scores.tool-check.passed' }, right: { literal: false } } as const;
const SAMPLE = 0.3;

describe('escalation in the service', () => {
  it('calls the judge only on the runs the check failed or the sample picked; a not_escalated decision for each other run', async () => {
    const server = await startFaultJudgeServer('ok');
    onTestFinished(() => server.close());
    const provider = createOpenAICompatibleJudgeProvider({ baseURL: server.baseURL });
    const topics = await useServiceTopics(3);
    const bad = ['esc-1-bad', 'esc-2-bad', 'esc-3-bad', 'esc-4-bad'];
    const good = Array.from({ length: 16 }, (_, index) => `esc-good-${index}`);
    const runIds = [...bad, ...good];
    await produceRaw(topics.runs, runIds.map((runId) => ({ key: runId, value: JSON.stringify(testRun({ runId })) })));
    await startTestService({
      topics,
      judge: { models: { languageModel: (id: string) => provider.languageModel(id) } },
      // The judge is bound first: it waits for the check all the same.
      scorers: [
        { scorer: judgeScorer('answer-judge', 'gpt-4o-mini' as never), escalate: { when: checkFailed, sample: SAMPLE } },
        { scorer: toolCheck, pass: { atLeast: 0.5 } },
      ],
    });
    // Which good runs the sample picks, worked out here from the run's sampling key (its trace id, else its id).
    const inSample = good.filter((runId) => {
      const parsed = parseAgentRunEvent(testRun({ runId }));
      if (!parsed.success) throw new Error(`test run ${runId} is invalid`);
      const facts = collectRunFacts(parsed.data, { topic: topics.runs, partition: 0, offset: '0' }, {});
      return samplingBucket(escalationSampleKey('answer-judge', facts.samplingKey)) < SAMPLE;
    });
    expect(inSample.length).toBeGreaterThan(0);
    expect(inSample.length).toBeLessThan(good.length);
    const results = await readRecords<ScoreRecord>(topics.results, runIds.length + bad.length + inSample.length, 60_000);
    const decisions = await readRecords<DecisionRecord>(topics.decisions, good.length - inSample.length, 60_000);
    const judged = results.filter((record) => record.scorerId === 'answer-judge');
    expect(results.filter((record) => record.scorerId === 'tool-check')).toHaveLength(runIds.length);

    // Every bad run escalated; good runs only by the sample, and exactly those the bucket puts in it.
    const tierOf = new Map(judged.map((record) => [record.runId, record.escalation]));
    for (const runId of bad) expect(tierOf.get(runId)).toMatchObject({ tier: 'escalated', after: ['tool-check'] });
    const sampled = judged.filter((record) => record.escalation?.tier === 'sampled');
    expect(sampled.map((record) => record.runId).sort()).toEqual([...inSample].sort());
    expect(sampled.every((record) => record.escalation!.sample.bucket < SAMPLE)).toBe(true);
    expect(judged).toHaveLength(bad.length + inSample.length);
    expect(server.requests).toBe(judged.length);

    expect(decisions.every((decision) => decision.reason === 'not_escalated' && decision.scorerId === 'answer-judge')).toBe(true);
    expect(new Set([...decisions.map((decision) => decision.runId), ...sampled.map((record) => record.runId)])).toEqual(new Set(good));
    for (const decision of decisions) {
      expect(decision.escalation).toMatchObject({ tier: 'not_escalated', after: ['tool-check'], sample: { rate: SAMPLE } });
      expect(decision.escalation!.sample.bucket).toBeGreaterThanOrEqual(SAMPLE);
      expect(decision.detail).toMatch(/^not escalated: tool-check: 1 pass; escalate\.when is false/);
    }

    const metrics = await capture.collectMetrics();
    const count = (tier: string) => metricValue(metrics, 'scorestream.escalations', { 'scorestream.scorer.id': 'answer-judge', 'scorestream.escalation.tier': tier });
    expect([count('escalated'), count('sampled'), count('not_escalated')]).toEqual([bad.length, sampled.length, decisions.length]);
    expect(metricValue(metrics, 'scorestream.skips', { 'scorestream.skip.reason': 'not_escalated' })).toBe(decisions.length);
  }, 120_000);

  it('refuses escalations that form a cycle when the service starts: exit 2, naming the cycle', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'scorestream-escalation-'));
    onTestFinished(() => rm(directory, { recursive: true, force: true }));
    const createScorerModule = fileURLToPath(new URL('../../../src/kit/scorer/create-scorer.ts', import.meta.url));
    const config = join(directory, 'cycle.config.ts');
    await writeFile(
      config,
      `import { createScorer } from ${JSON.stringify(createScorerModule)};
const scorer = (id: string) => createScorer({ id, description: id }).generateScore(() => 1);
const after = (id: string) => ({ when: { op: 'exists', path: 'scores.' + id + '.score' } });
export default { scorers: [{ scorer: scorer('judge-a'), escalate: after('judge-b') }, { scorer: scorer('judge-b'), escalate: after('judge-a') }] };
`,
    );
    const cli = fileURLToPath(new URL('../../../cli/main.ts', import.meta.url));
    const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', cli, 'start', '--config', config], {
      env: { ...process.env, KAFKA_BROKERS: testBrokers().join(','), OTEL_SDK_DISABLED: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const started = performance.now();
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code, stderr).toBe(2);
    expect(performance.now() - started).toBeLessThan(30_000);
    expect(stderr).toMatch(/scorers\[0\]\.escalate\.when: escalations form a cycle \('judge-a' → 'judge-b' → 'judge-a'\)/);
  }, 60_000);
});
