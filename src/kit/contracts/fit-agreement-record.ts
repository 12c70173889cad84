// An agreement record as it is published: its JSON within the output's size limit. Of a pair, only
// the person's free-text comment can grow without bound (a pasted transcript, a log): over the
// limit it is cut, on a character boundary, to what fits, with `truncated` saying how much was
// kept; a pair that does not fit even without its comment (ids and metadata of megabytes), and a
// window that does not fit, are not written — the caller drops and reports them, so that the
// partition keeps moving (docs/delivery.md, record sizes). Pure.
import type { AgreementPair, AgreementRecord } from './agreement-record.ts';

export type FittedAgreementRecord = {
  readonly record: AgreementRecord;
  readonly json: string;
  /** The next smaller form (a broker that refused this one: its topic's max.message.bytes is lower), undefined when none is left. */
  smaller(): FittedAgreementRecord | undefined;
};

const bytesOf = (text: string) => Buffer.byteLength(text);

/** The longest prefix of `text` of at most `maxBytes` UTF-8 bytes, never splitting a character. */
function prefixWithin(text: string, maxBytes: number): string {
  const encoded = Buffer.from(text);
  if (encoded.length <= maxBytes) return text;
  let end = Math.max(0, maxBytes);
  // A UTF-8 continuation byte (10xxxxxx) cannot start a character: back off to one that can.
  while (end > 0 && (encoded[end]! & 0xc0) === 0x80) end -= 1;
  return encoded.subarray(0, end).toString('utf8');
}

/** The pair with its comment cut to fit `limitBytes`, or without it; undefined when even that is over. */
function cutComment(pair: AgreementPair, originalBytes: number, limitBytes: number): AgreementPair | undefined {
  const comment = pair.human.comment ?? '';
  const commentBytes = bytesOf(comment);
  const { comment: _dropped, ...human } = pair.human;
  const withoutComment: AgreementPair = { ...pair, human, truncated: { originalBytes, limitBytes, comment: { keptBytes: 0, droppedBytes: commentBytes } } };
  // What the rest takes with the largest markers, and the comment's quotes and escapes at their worst (JSON.stringify of the cut text).
  const rest = bytesOf(JSON.stringify(withoutComment)) + bytesOf(',"comment":""') + 2 * String(commentBytes).length;
  if (rest > limitBytes) return undefined;
  let room = limitBytes - rest;
  for (;;) {
    const kept = prefixWithin(comment, room);
    const candidate: AgreementPair = { ...pair, human: { ...human, comment: kept }, truncated: { originalBytes, limitBytes, comment: { keptBytes: bytesOf(kept), droppedBytes: commentBytes - bytesOf(kept) } } };
    const over = bytesOf(JSON.stringify(candidate)) - limitBytes;
    if (over <= 0) return kept.length === 0 ? withoutComment : candidate;
    // Escapes (quotes, control characters) took more than the text: take that much less.
    room -= over;
    if (room <= 0) return withoutComment;
  }
}

function fitted(record: AgreementRecord, json: string, smaller: () => FittedAgreementRecord | undefined): FittedAgreementRecord {
  return { record, json, smaller };
}

/** The record as it fits `limitBytes`; undefined when not even its smallest form does. */
export function fitAgreementRecord(record: AgreementRecord, limitBytes: number): FittedAgreementRecord | undefined {
  const json = JSON.stringify(record);
  const bytes = bytesOf(json);
  // The smaller form for a broker that refuses what is within the limit: half the room, then no comment.
  const smaller = (): FittedAgreementRecord | undefined => (record.kind === 'pair' && record.human.comment !== undefined && bytes > 1 ? fitAgreementRecord(record, Math.floor(Math.min(bytes, limitBytes) / 2)) : undefined);
  if (bytes <= limitBytes) return fitted(record, json, smaller);
  if (record.kind !== 'pair' || record.human.comment === undefined) return undefined;
  const cut = cutComment(record, bytes, limitBytes);
  if (cut === undefined) return undefined;
  const cutJson = JSON.stringify(cut);
  const cutBytes = bytesOf(cutJson);
  return fitted(cut, cutJson, () => (cut.human.comment === undefined || cutBytes <= 1 ? undefined : fitAgreementRecord(record, Math.floor(cutBytes / 2))));
}
