// A score record as it is published: its JSON, within the output's size limit. A record over the
// limit keeps its score, verdict, status and identity and sheds evidence in the order of TRUNCATED_PARTS —
// the steps' raw results, then the prompts, then the judge's outputs — saying in `truncated` what
// it dropped and how many bytes each part took; a record that does not fit even without evidence
// goes out as `failed` with the stable code `record_too_large`, its identity, trace, source,
// latency, escalation tier and judge spend kept. A record whose step results cannot be written as JSON at all (a BigInt, a cycle) goes out
// as `failed` with `unserializable_result`. Either way the partition keeps moving: a record the
// broker refuses for ever would stall it (docs/delivery.md, record sizes). Pure.
import type { JudgeResults } from './judge-execution.ts';
import type { FailedScoreRecord, ScoreError, ScoreRecord, TruncatedPart, Truncation } from './score-record.ts';

export type FittedScoreRecord = {
  /** The record as published (possibly shed or failed). */
  readonly record: ScoreRecord;
  readonly json: string;
  /**
   * The JSON is the record's own, whole (no form cut, nothing unserializable): it reads back as
   * the same record, so the smaller forms can be made again from the JSON alone (smallerFromJson).
   */
  readonly readsBack: boolean;
  /** Its UTF-8 bytes (counted when asked). */
  readonly bytes: number;
  /**
   * The next smaller form, for a broker that refused this one although it was within the limit
   * (its topic's `max.message.bytes` is lower): undefined when none is left.
   */
  smaller(): FittedScoreRecord | undefined;
};

/** UTF-8 bytes of a JSON text; most records are far below the limit, which needs no count. */
export function jsonBytes(json: string, limitBytes: number): number {
  return json.length * 3 <= limitBytes ? json.length : Buffer.byteLength(json);
}

function stringify(record: ScoreRecord): string {
  try {
    return JSON.stringify(record);
  } catch (error) {
    return JSON.stringify(unserializable(record, error));
  }
}

/** The record as it fits `limitBytes`; undefined when not even its smallest form does (an id of megabytes). */
export function fitScoreRecord(record: ScoreRecord, limitBytes: number): FittedScoreRecord | undefined {
  // The common case first, without the machinery of smaller forms: one serialisation, no count.
  let json: string;
  let readsBack = true;
  try {
    json = JSON.stringify(record);
  } catch (error) {
    json = JSON.stringify(unserializable(record, error));
    readsBack = false;
  }
  if (jsonBytes(json, limitBytes) <= limitBytes) return fitted(record, json, () => smallerForms(record), readsBack);
  const forms = smallerForms(record);
  for (let form = forms.next(); !form.done; form = forms.next()) {
    const candidate = form.value(limitBytes);
    const candidateJson = stringify(candidate);
    if (jsonBytes(candidateJson, limitBytes) <= limitBytes) return fitted(candidate, candidateJson, () => forms, false);
  }
  return undefined;
}

/**
 * The next smaller form of a record that went out whole (`readsBack`), made from its JSON alone:
 * the same form `smaller()` of its fitting gives. JSON.stringify's output parses back to a record
 * that serialises to the same text, so the forms made from it are the same.
 */
export function smallerFromJson(json: string | Buffer, limitBytes: number): FittedScoreRecord | undefined {
  return fitScoreRecord(JSON.parse(typeof json === 'string' ? json : json.toString('utf8')) as ScoreRecord, limitBytes)?.smaller();
}

/** `rest`: the smaller forms still to come, made only when a smaller one is asked for. */
function fitted(record: ScoreRecord, json: string, rest: () => Generator<Form>, readsBack: boolean): FittedScoreRecord {
  let forms: Generator<Form> | undefined;
  let next: FittedScoreRecord | null | undefined = null;
  return {
    record,
    json,
    readsBack,
    get bytes() {
      return Buffer.byteLength(json);
    },
    smaller() {
      if (next !== null) return next;
      forms ??= rest();
      const form = forms.next();
      if (form.done) return (next = undefined);
      const candidate = form.value(this.bytes - 1);
      const remaining = forms;
      return (next = fitted(candidate, stringify(candidate), () => remaining, false));
    },
  };
}

/** A form of the record, given the limit it must fit (which its marker names). */
type Form = (limitBytes: number) => ScoreRecord;

/** Each form smaller than the record, in turn: shed steps, prompts, judge outputs; then failed; then failed without metadata. */
function* smallerForms(record: ScoreRecord): Generator<Form> {
  const originalBytes = Buffer.byteLength(stringify(record));
  const dropped: Truncation['dropped'] = [];
  let current: ScoreRecord = record;
  let currentBytes = originalBytes;
  for (const part of shedOrder) {
    const shed = part.shed(current);
    if (shed === undefined) continue;
    const shedBytes = Buffer.byteLength(stringify(shed));
    dropped.push({ part: part.name, bytes: Math.max(0, currentBytes - shedBytes) });
    current = shed;
    currentBytes = shedBytes;
    const marked = [...dropped];
    const shedRecord = shed;
    yield (limitBytes) => ({ ...shedRecord, truncated: { originalBytes, limitBytes, dropped: marked } });
  }
  const everything = [...dropped];
  yield (limitBytes) => tooLarge(record, current, { originalBytes, limitBytes, dropped: everything }, true);
  yield (limitBytes) => tooLarge(record, current, { originalBytes, limitBytes, dropped: everything }, false);
}

const shedOrder: ReadonlyArray<{ name: TruncatedPart; shed(record: ScoreRecord): ScoreRecord | undefined }> = [
  { name: 'steps', shed: (record) => (hasKeys(record.steps) ? { ...record, steps: {} } : undefined) },
  { name: 'prompts', shed: shedPrompts },
  { name: 'judgeOutputs', shed: shedJudgeOutputs },
];

function hasKeys(value: object | undefined): boolean {
  if (value === undefined) return false;
  for (const _ in value) return true;
  return false;
}

/** Every judge evidence of the record: its own and its earlier attempts'. */
function mapJudge(record: ScoreRecord, map: (judge: JudgeResults) => JudgeResults): ScoreRecord {
  const retries = record.retries === undefined ? undefined : { ...record.retries, attempts: record.retries.attempts.map((attempt) => (attempt.judge === undefined ? attempt : { ...attempt, judge: map(attempt.judge) })) };
  return { ...record, ...(record.judge === undefined ? {} : { judge: map(record.judge) }), ...(retries === undefined ? {} : { retries }) };
}

function mapExecutions(judge: JudgeResults, map: (execution: JudgeExecutionOf) => JudgeExecutionOf): JudgeResults {
  const result: JudgeResults = {};
  for (const [step, value] of Object.entries(judge) as Array<[keyof JudgeResults, JudgeResults[keyof JudgeResults]]>) {
    if (value !== undefined) result[step] = { executions: value.executions.map(map) };
  }
  return result;
}

type JudgeExecutionOf = NonNullable<JudgeResults['analyze']>['executions'][number];

function judgeHas(record: ScoreRecord, test: (execution: JudgeExecutionOf) => boolean): boolean {
  const all = [record.judge, ...(record.retries?.attempts.map((attempt) => attempt.judge) ?? [])];
  return all.some((judge) => judge !== undefined && Object.values(judge).some((step) => step?.executions.some(test) === true));
}

function shedPrompts(record: ScoreRecord): ScoreRecord | undefined {
  if (!hasKeys(record.prompts) && !judgeHas(record, (execution) => execution.prompt !== '')) return undefined;
  return { ...mapJudge(record, (judge) => mapExecutions(judge, (execution) => ({ ...execution, prompt: '' }))), prompts: {} };
}

function shedJudgeOutputs(record: ScoreRecord): ScoreRecord | undefined {
  if (!judgeHas(record, (execution) => (execution.output !== undefined && execution.output !== null) || (execution.status === 'failed' && execution.rawOutput !== undefined))) return undefined;
  return mapJudge(record, (judge) =>
    mapExecutions(judge, (execution) => {
      if (execution.status === 'failed') {
        const { output: _output, rawOutput: _rawOutput, ...rest } = execution;
        return rest;
      }
      // A successful execution's `output` is required: null says it was shed (see `truncated`).
      return { ...execution, output: null };
    }),
  );
}

/** What every form keeps: the pair's identity, its run's trace and source, when it was scored, its latency, escalation tier and judge spend. */
function identityOf(record: ScoreRecord, withMetadata: boolean): Omit<FailedScoreRecord, 'status' | 'error'> {
  return {
    schemaVersion: record.schemaVersion,
    scoreId: record.scoreId,
    runId: record.runId,
    scorerId: record.scorerId,
    ...(record.scorerName === undefined ? {} : { scorerName: record.scorerName }),
    ...(record.scorerVersion === undefined ? {} : { scorerVersion: record.scorerVersion }),
    entity: record.entity,
    ...(withMetadata && record.metadata !== undefined ? { metadata: record.metadata } : {}),
    steps: {},
    prompts: {},
    ...(record.trace === undefined ? {} : { trace: record.trace }),
    source: record.source,
    ...(record.sampling === undefined ? {} : { sampling: record.sampling }),
    ...(record.replay === undefined ? {} : { replay: record.replay }),
    scoredAt: record.scoredAt,
    durationMs: record.durationMs,
    ...(record.latency === undefined ? {} : { latency: record.latency }),
    // Which tier decided, and what the judge calls cost: small, and paid for whatever the record's size.
    ...(record.escalation === undefined ? {} : { escalation: record.escalation }),
    ...(record.spend === undefined ? {} : { spend: record.spend }),
  };
}

function outcomeOf(record: ScoreRecord): string {
  if (record.status === 'scored') return `scored ${record.score}${record.verdict === undefined ? '' : ` (${record.verdict})`}`;
  if (record.status === 'not_scorable') return `not scorable at ${record.notScorable.step}`;
  return `failed at ${record.error.failedStep} (${record.error.code ?? record.error.name}: ${record.error.message.slice(0, 300)})`;
}

function tooLarge(original: ScoreRecord, shed: ScoreRecord, truncated: Truncation, withMetadata: boolean): FailedScoreRecord {
  const error: ScoreError = {
    name: 'RecordTooLargeError',
    code: 'record_too_large',
    message:
      `the score record is ${truncated.originalBytes} bytes of JSON, over the output's limit of ${truncated.limitBytes} even without its evidence ` +
      `(${Buffer.byteLength(stringify(shed))} bytes); the pair was ${outcomeOf(original)}. Return smaller values from steps, reasons and judge answers, ` +
      "or raise maxRecordBytes together with the output topics' max.message.bytes",
    failedStep: 'generateReason',
    completedSteps: original.status === 'failed' ? original.error.completedSteps : [],
    retryable: false,
  };
  return { ...identityOf(original, withMetadata), ...(withMetadata && truncated.dropped.length > 0 ? { truncated } : {}), status: 'failed', error };
}

/** The record as `failed`: what the scorer returned is dropped (it is what cannot be written), the rest kept. */
function unserializable(record: ScoreRecord, error: unknown): FailedScoreRecord {
  // A verdict belongs to a scored record only; the failed one says why it has none.
  const { score: _score, verdict: _verdict, reason: _reason, notScorable: _notScorable, steps: _steps, judge: _judge, ...rest } = record as ScoreRecord & Record<string, unknown>;
  return {
    ...(rest as unknown as Omit<FailedScoreRecord, 'status' | 'error'>),
    status: 'failed',
    steps: {},
    error: {
      name: 'UnserializableResultError',
      message: `the scorer's result cannot be written as JSON (${error instanceof Error ? error.message : String(error)}); return plain JSON values from steps`,
      code: 'unserializable_result',
      failedStep: 'generateReason',
      completedSteps: [],
      retryable: false,
    },
  };
}
