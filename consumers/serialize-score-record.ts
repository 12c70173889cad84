// The JSON of a score record, as published. Step results are the scorer's own values and may not
// serialise (a BigInt, a cycle): then the record goes out as `failed`, saying why, rather than
// blocking the partition with a record that can never be written.
import type { ScoreRecord } from '../src/contracts/score-record.ts';

export function serializeScoreRecord(record: ScoreRecord): string {
  try {
    return JSON.stringify(record);
  } catch (error) {
    return JSON.stringify(unserializableResult(record, error));
  }
}

/** The record as `failed`: what the scorer returned is dropped (it is what cannot be written), the rest kept. */
function unserializableResult(record: ScoreRecord, error: unknown): ScoreRecord {
  const { score: _score, reason: _reason, notScorable: _notScorable, steps: _steps, judge: _judge, ...rest } = record as ScoreRecord & Record<string, unknown>;
  return {
    ...(rest as unknown as Omit<ScoreRecord, 'status'>),
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
  } as ScoreRecord;
}
