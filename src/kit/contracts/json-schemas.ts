// The JSON Schema documents generated from the zod contracts, for teams that produce or read the
// topics without TypeScript. `npm run schemas` writes them to schemas/; a unit test fails when the
// checked-in files are stale. Generated for the input side (`io: 'input'`): what goes on the wire.
import { z } from 'zod';
import { agentRunEventSchema } from './agent-run-event.ts';
import { alertRecordSchema } from './alert-record.ts';
import { agreementRecordSchema } from './agreement-record.ts';
import { deadLetterSchema } from './dead-letter.ts';
import { decisionRecordSchema } from './decision-record.ts';
import { feedbackRecordSchema } from './feedback-record.ts';
import { replayStateSchema } from './replay-state.ts';
import { rescoreRequestSchema } from './rescore-request.ts';
import { retryMessageSchema } from './retry-message.ts';
import { scoreRecordSchema } from './score-record.ts';
import { threadEndedEventSchema } from './thread-ended.ts';
import { threadTurnSchema } from './thread-turn.ts';

const SCHEMA_BASE_ID = 'https://scorestream.dev/schemas/';

const contracts = [
  { file: 'agent-run-event.v1.json', title: 'AgentRunEvent v1', description: 'One finished agent or workflow run (topic agent-runs, key = runId).', schema: agentRunEventSchema },
  { file: 'score-record.v1.json', title: 'ScoreRecord v1', description: 'One score per eligible (run, scorer) pair (topic agent-scores, key = scoreId, partitioned by runId; a thread score by its thread key).', schema: scoreRecordSchema },
  { file: 'dead-letter.v1.json', title: 'DeadLetter v1', description: 'A run event the consumer could not accept, with its original bytes and the reason.', schema: deadLetterSchema },
  { file: 'decision-record.v1.json', title: 'DecisionRecord v1', description: 'Why a (run, scorer) pair was skipped or deferred.', schema: decisionRecordSchema },
  { file: 'alert-record.v1.json', title: 'AlertRecord v1', description: "An in-stream monitor's breach or recovered notice (topic agent-score-alerts, key = the monitor's name).", schema: alertRecordSchema },
  { file: 'thread-turn.v1.json', title: 'ThreadTurn v1', description: 'One run of a conversation re-keyed by its thread, with its run scores (topic {runs}-by-thread, key = tenant:thread).', schema: threadTurnSchema },
  { file: 'thread-ended.v1.json', title: 'ThreadEnded v1', description: 'The explicit end of a conversation (topic agent-runs beside the run events; re-keyed to {runs}-by-thread).', schema: threadEndedEventSchema },
  { file: 'feedback-record.v1.json', title: 'FeedbackRecord v1', description: 'What a person or a program said about a run (topic agent-feedback, key = the run id, as the run\'s score records).', schema: feedbackRecordSchema },
  { file: 'agreement-record.v1.json', title: 'AgreementRecord v1', description: 'How a judge agrees with people: one (feedback, score record) pair, or a scorer version\'s window summary (topic agent-score-agreements).', schema: agreementRecordSchema },
  { file: 'retry-message.v1.json', title: 'RetryMessage v1', description: 'A (run, scorer) pair waiting on a retry tier after a transient failure (topics {runs}-retry-<delay>, key = scoreId, partitioned by runId).', schema: retryMessageSchema },
  { file: 'rescore-request.v1.json', title: 'RescoreRequest v1', description: 'The feedback join asks the service to score a pair again for a feedback that disagrees with it (topic {runs}-rescore, key = the re-score\'s id, partitioned by runId).', schema: rescoreRequestSchema },
  { file: 'replay-state.v1.json', title: 'ReplayState v1', description: 'The range a replay fixed when it started (compacted topic {runs}-replays, key = the replay id).', schema: replayStateSchema },
] as const;

/** File name → JSON Schema document. */
export function contractJsonSchemas(): Record<string, Record<string, unknown>> {
  const documents: Record<string, Record<string, unknown>> = {};
  for (const contract of contracts) {
    const generated = z.toJSONSchema(contract.schema, { io: 'input' }) as Record<string, unknown>;
    const { $schema, ...body } = generated;
    documents[contract.file] = {
      $schema,
      $id: `${SCHEMA_BASE_ID}${contract.file}`,
      title: contract.title,
      description: contract.description,
      ...body,
    };
  }
  return documents;
}

/** The exact text written to schemas/<file>. */
export function serializeJsonSchema(document: Record<string, unknown>): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
