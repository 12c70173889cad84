// What the feedback join (agreement-join.ts) does with what it reads, and writes through its one
// way out (role-output.ts):
//   a batch   of the results topic: scored records (not re-scores: they were made because of a
//             feedback, and would count its disagreement twice and ask again) into the join; of the
//             feedback topic: each FeedbackRecord into the join, anything else dead-lettered with
//             its reason (dead-letter emissions keep the message's key, value and headers);
//   its pairs each measured once by the ledger (a pair completed again — a duplicate, a replay
//             after a restart — is `same` and not published again); one that disagrees asks for
//             a re-score first (rescore-request-for.ts), so that once the pair is on the
//             agreements topic its request was sent;
//   windows   the ledger's changed windows, at the rebuild's end and on the flush timer.
// The next batch of a partition waits for this one's records: the reader is back-pressured by Kafka's acknowledgements.
import type { ConsumedMessage } from '../kafka/kafka-records.ts';
import type { AgreementRecord } from '../src/kit/contracts/agreement-record.ts';
import { decodeFeedbackRecord, parseScoreRecord } from '../src/kit/contracts/parse.ts';
import type { AgreementLedger } from '../src/engine/agreement/agreement-ledger.ts';
import { buildAgreementPair } from '../src/engine/agreement/build-agreement-pair.ts';
import type { FeedbackJoin, JoinedPair } from '../src/engine/agreement/feedback-join.ts';
import { joinScoreOf } from '../src/engine/agreement/join-score-of.ts';
import { rescoreRequestFor } from '../src/engine/agreement/rescore-request-for.ts';
import type { RescoreRequest } from '../src/kit/contracts/rescore-request.ts';
import type { RoleOutput } from './role-output.ts';

export type AgreementJoinCounters = {
  feedbackRead: number;
  scoresRead: number;
  pairsPublished: number;
  /** Pairs completed again (a duplicate, a replay after a restart) and not published again. */
  pairsRepeated: number;
  /** Feedback the scale cannot place (neither pass nor fail: a 1–5 rating, a free label). */
  feedbackUnlabelled: number;
  /** Feedback about a thread (of feedbackRead): joined to the thread's scores by its key. */
  feedbackThreads: number;
  windowsPublished: number;
  /** Re-score requests published (disagreeing pairs measured for the first time, or changed). */
  rescoresRequested: number;
  /** Disagreeing pairs measured for the first time, or changed, that ask for no re-score because their score is a thread's (never asked: rescore-request-for.ts). */
  rescoresRefused: number;
  /** Score records that are re-scores themselves: read, not joined. */
  rescoresRead: number;
  deadLettersByCode: Map<string, number>;
  recordsUnreadable: number;
};

export type AgreementPublishingOptions = {
  output: RoleOutput;
  join: FeedbackJoin;
  ledger: AgreementLedger;
  counters: AgreementJoinCounters;
  topics: { feedback: string; results: string };
  /** The join asks for re-scores (a rescore topic is set). */
  rescores: boolean;
  passThreshold?: number | undefined;
  maxFeedbackBytes: number;
  now: () => number;
  warn: (message: string) => void;
};

export type AgreementPublishing = {
  /** One batch of one partition of the feedback or the results topic; resolves once its records were acknowledged. */
  batch(topic: string, partition: number, messages: ConsumedMessage[]): Promise<void>;
  /** The ledger's changed windows, published. */
  windows(): Promise<void>;
};

/** A message's JSON parsed by `parse`, or undefined when it is a tombstone, not JSON, or not of the shape. */
export function readJson<T>(message: Pick<ConsumedMessage, 'value'>, parse: (value: unknown) => { success: true; data: T } | { success: false }): T | undefined {
  if (message.value === null) return undefined;
  try {
    const parsed = parse(JSON.parse(message.value.toString('utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export function createAgreementPublishing(options: AgreementPublishingOptions): AgreementPublishing {
  const { output, join, ledger, counters, now, warn } = options;
  let refusalLogged = false;
  const emitAll = (records: readonly AgreementRecord[]) => Promise.all(records.map((record) => output.emit({ kind: 'agreement', record }))).then(() => undefined);

  const publishPairs = async (pairs: readonly JoinedPair[]): Promise<void> => {
    const records: AgreementRecord[] = [];
    const rescores: RescoreRequest[] = [];
    const measuredAt = new Date(now()).toISOString();
    for (const joined of pairs) {
      const pair = buildAgreementPair(joined, measuredAt, options.passThreshold);
      if (pair === undefined) {
        counters.feedbackUnlabelled += 1;
        continue;
      }
      const outcome = ledger.record(pair, now());
      if (outcome === 'same' || outcome === 'stale' || outcome === 'too_old') {
        counters.pairsRepeated += 1;
        continue;
      }
      records.push(pair);
      const request = options.rescores ? rescoreRequestFor(joined, pair, measuredAt) : undefined;
      if (request === undefined) continue;
      if ('refused' in request) {
        counters.rescoresRefused += 1;
        if (!refusalLogged) warn(`a thread score disagrees with its feedback (scorer ${pair.scorerId}, thread ${pair.thread?.key ?? '?'}): thread scores are not re-scored on feedback, so none is asked; this and later ones are counted in scorestream.agreement.rescores{outcome=refused_thread_score} and logged only this once (docs/feedback.md, feedback on a thread)`);
        refusalLogged = true;
        continue;
      }
      rescores.push(request);
    }
    // Requests before their pairs: a pair on the agreements topic means its request was sent.
    await Promise.all(rescores.map((request) => output.emit({ kind: 'rescore-request', request })));
    counters.rescoresRequested += rescores.length;
    await emitAll(records);
    counters.pairsPublished += records.length;
  };

  const feedbackOf = (topic: string, partition: number, message: ConsumedMessage): JoinedPair[] | Promise<void> => {
    const decoded = decodeFeedbackRecord(message.value, { maxBytes: options.maxFeedbackBytes });
    if (!decoded.success) {
      counters.deadLettersByCode.set(decoded.code, (counters.deadLettersByCode.get(decoded.code) ?? 0) + 1);
      const error = { code: decoded.code, message: decoded.message, ...(decoded.problems.length === 0 ? {} : { problems: decoded.problems }) };
      return output.emit({ kind: 'dead-letter', message: { ...message, headers: message.headers }, error }, { topic, partition, offset: message.offset });
    }
    counters.feedbackRead += 1;
    if (decoded.data.target.type === 'thread') counters.feedbackThreads += 1;
    return join.addFeedback(decoded.data, Number(message.timestamp), now());
  };

  return {
    async batch(topic, partition, messages) {
      const pairs: JoinedPair[] = [];
      const deadLetters: Promise<void>[] = [];
      for (const message of messages) {
        if (topic === options.topics.results) {
          const record = readJson(message, parseScoreRecord);
          if (record === undefined) {
            counters.recordsUnreadable += message.value === null ? 0 : 1;
            continue;
          }
          counters.scoresRead += 1;
          if (record.rescore !== undefined) counters.rescoresRead += 1;
          if (record.status !== 'scored' || record.rescore !== undefined) continue;
          pairs.push(...join.addScore(joinScoreOf(record), Number(message.timestamp), now()));
          continue;
        }
        const joined = feedbackOf(topic, partition, message);
        if (Array.isArray(joined)) pairs.push(...joined);
        else deadLetters.push(joined);
      }
      await Promise.all(deadLetters);
      await publishPairs(pairs);
    },
    async windows() {
      const windows = ledger.takeChangedWindows(new Date(now()).toISOString());
      await emitAll(windows);
      counters.windowsPublished += windows.length;
    },
  };
}
