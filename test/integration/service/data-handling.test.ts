// Data handling end to end (docs/data-handling.md), on a real broker with the real SDK set-up:
// an address, a card number, an API key and a bearer token planted in a run reach the scorers —
// a judge's prompt, a code scorer's step result and reason, a scorer's error, a filter's error, a
// message that is not JSON — and none of them reaches a score record, a decision record, a dead
// letter's reason, a span (prompts recorded on spans, exceptions, the AI SDK's own spans) or a log
// line (pino to a sink stream). Only the dead letter's original bytes keep them, as documented.
// Then the evidence levels: a binding at 'no-content' and the config at 'none'.
import { Writable } from 'node:stream';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DeadLetter, DecisionRecord, ScoreRecord } from '../../../src/index.ts';
import { createScorer } from '../../../src/kit/scorer/create-scorer.ts';
import { mockJudge } from '../../../src/kit/testing/mock-judge.ts';
import { getAssistantMessageFromRunOutput } from '../../../src/kit/utils/run-output.ts';
import { createLogger } from '../../../otel/logger.ts';
import { processRedaction } from '../../../cli/config-redaction.ts';
import { judgeScorer } from '../../fixtures/scorers.ts';
import { testRun } from '../../helpers/runs.ts';
import { produceRaw, readRecords, startTestService, useServiceTopics } from '../../helpers/service.ts';
import { installTestTelemetry, waitForSpans } from '../../helpers/spans.ts';
import type { TelemetryCapture } from '../../helpers/spans.ts';

const planted = {
  email: 'planted.person@example.com',
  card: '4111 1111 1111 1111',
  apiKey: 'sk-proj-PLANTEDplantedPLANTED1234',
  bearer: 'plantedBearerTokenValue123456',
  // Short enough to appear whole in the snippet V8's JSON.parse error quotes (about ten characters).
  shortEmail: 'ab@ex.io',
};
const plantedText = `Contact ${planted.email}, card ${planted.card}, key ${planted.apiKey}, header Authorization: Bearer ${planted.bearer}.`;
const leaks = (text: string) => Object.values(planted).filter((secret) => text.includes(secret));

// What the CLI does: one redactor for the logger and the spans, the built-ins until the config is known.
const redaction = processRedaction();
let capture: TelemetryCapture;
beforeAll(async () => {
  capture = await installTestTelemetry({ redact: redaction.redact, recordInputs: true });
});
afterAll(async () => {
  await capture.uninstall();
});
beforeEach(() => capture.reset());

function logSink() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      callback();
    },
  });
  return { lines, logger: createLogger({ level: 'debug', destination, redact: redaction.redact }) };
}

/** Quotes the run in its step result and its reason, as real scorers do. */
const quotingScorer = createScorer({ id: 'quoting', description: 'Quotes the answer' })
  .preprocess(({ run }) => ({ answer: getAssistantMessageFromRunOutput(run.output) ?? '' }))
  .generateScore(() => 1)
  .generateReason(({ results }) => `the answer said: ${(results.preprocessStepResult as { answer: string }).answer}`);
/** Fails with a message that quotes the run, like a parser that gives up on its content. */
const quotingFailure = createScorer({ id: 'quoting-failure', description: 'Fails quoting the run' })
  .analyze(({ run }) => {
    throw new Error(`cannot handle: ${getAssistantMessageFromRunOutput(run.output) ?? ''}`);
  })
  .generateScore(() => 0);
const spanText = (spans: readonly ReadableSpan[]) => JSON.stringify(spans.map((span) => ({ name: span.name, attributes: span.attributes, events: span.events, status: span.status, links: span.links })));

describe('data handling', () => {
  it('keeps a planted address, card number, API key and bearer token out of every record, span and log line', async () => {
    const topics = await useServiceTopics();
    await produceRaw(topics.runs, [
      { key: 'planted', value: JSON.stringify(testRun({ runId: 'planted', answer: plantedText, question: `I am ${planted.email}` })) },
      // Not JSON: the parser's message quotes the start of the bytes, and so would the dead letter's reason and the log line.
      { key: 'planted-bad', value: `${planted.shortEmail} wrote: ${plantedText}` },
    ]);
    const { lines, logger } = logSink();
    await startTestService(
      {
        topics,
        retries: { enabled: false },
        scorers: [
          { scorer: quotingScorer },
          { scorer: quotingFailure },
          { scorer: judgeScorer('judge', mockJudge({ answer: { score: 0.5 } })) },
          {
            scorer: createScorer({ id: 'filtered', description: 'never runs' }).generateScore(() => 1),
            when: () => {
              throw new Error(`no rule for ${planted.email}`);
            },
          },
        ],
      },
      { logger, recordInputs: true },
    );

    const records = await readRecords<ScoreRecord>(topics.results, 3);
    const decisions = await readRecords<DecisionRecord>(topics.decisions, 1);
    const [deadLetter] = await readRecords<DeadLetter>(topics.deadLetter, 1);
    const spans = await waitForSpans(capture, (all) => all.filter((span) => span.name.startsWith('score ')).length >= 2 && all.some((span) => span.name.startsWith('chat ')));

    // The content did reach every place, redacted.
    const byScorer = new Map(records.map((record) => [record.scorerId, record]));
    expect(byScorer.get('quoting')).toMatchObject({ status: 'scored', steps: { preprocess: { answer: expect.stringContaining('[redacted:email]') } }, reason: expect.stringContaining('[redacted:card-number]') });
    expect(byScorer.get('quoting-failure')).toMatchObject({ status: 'failed', error: { message: expect.stringContaining('[redacted:api-key]') } });
    expect(byScorer.get('judge')!.prompts.generateScore).toContain('[redacted:bearer-token]');
    expect(byScorer.get('judge')!.judge?.generateScore?.executions[0]?.prompt).toContain('[redacted:email]');
    expect(decisions[0]).toMatchObject({ reason: 'predicate_error', detail: 'when: no rule for [redacted:email]' });
    expect(deadLetter!.error.message).toContain('"[redacted:email]');
    expect(spanText(spans)).toContain('[redacted:email]');
    expect(lines.some((line) => line.includes('dead-lettered') && line.includes('[redacted:'))).toBe(true);

    // And nothing planted is left anywhere.
    expect(leaks(JSON.stringify(records))).toEqual([]);
    expect(leaks(JSON.stringify(decisions))).toEqual([]);
    expect(leaks(JSON.stringify({ ...deadLetter, value: undefined }))).toEqual([]);
    expect(leaks(spanText(spans))).toEqual([]);
    expect(leaks(lines.join('\n'))).toEqual([]);
    // The judge's own AI SDK spans recorded the prompt (recordInputs), redacted.
    const chat = spans.filter((span) => span.name.startsWith('chat ') || span.name.startsWith('invoke_agent'));
    expect(chat.length).toBeGreaterThan(0);
    expect(spanText(chat)).toContain('[redacted:');
    // The dead letter keeps the original bytes, so a fixed message can be re-published: documented.
    expect(leaks(deadLetter!.value!.data).length).toBeGreaterThan(0);
  });

  it("publishes a 'no-content' binding's record without prompts, outputs, step results or reason, and a 'none' one without judge evidence", async () => {
    const topics = await useServiceTopics();
    await produceRaw(topics.runs, [{ key: 'levels', value: JSON.stringify(testRun({ runId: 'levels', answer: plantedText })) }]);
    const judgeWith = (id: string) => judgeScorer(id, mockJudge({ answer: { score: 0.5 }, usage: { inputTokens: 42, outputTokens: 7 } }));
    await startTestService({
      topics,
      evidence: 'none',
      redaction: { builtins: false },
      scorers: [{ scorer: judgeWith('kept-full'), evidence: 'full' }, { scorer: judgeWith('no-content'), evidence: 'no-content' }, { scorer: judgeWith('none') }, { scorer: quotingScorer, evidence: 'no-content' }],
    });
    const records = new Map((await readRecords<ScoreRecord>(topics.results, 4)).map((record) => [record.scorerId, record]));

    // Full, with redaction off: the planted text is there as the run had it.
    const full = records.get('kept-full')!;
    expect(full.evidence).toBeUndefined();
    expect(full.prompts.generateScore).toContain(planted.email);

    const noContent = records.get('no-content')!;
    expect(noContent).toMatchObject({ status: 'scored', score: 0.5, evidence: 'no-content', prompts: {}, steps: {} });
    const [execution] = noContent.judge!.generateScore!.executions;
    expect(execution).toMatchObject({ status: 'success', judgeModelId: 'mock-judge', usage: { inputTokens: 42, outputTokens: 7 }, attemptCount: 1 });
    expect(execution).not.toHaveProperty('prompt');
    expect(execution).not.toHaveProperty('output');
    expect(leaks(JSON.stringify(noContent))).toEqual([]);
    const quoting = records.get('quoting')!;
    expect(quoting).toMatchObject({ status: 'scored', score: 1, evidence: 'no-content', steps: {} });
    expect(quoting).not.toHaveProperty('reason');

    const none = records.get('none')!;
    expect(none).toMatchObject({ status: 'scored', score: 0.5, evidence: 'none', prompts: {}, steps: {} });
    expect(none).not.toHaveProperty('judge');
  });
});
