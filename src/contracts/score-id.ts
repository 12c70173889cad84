// Deterministic score ids: the same (runId, scorerId, scorerVersion) always yields the same id,
// so a re-scored run (rebalance, replay, crash) produces a recognisable duplicate and a compacted
// topic keeps one record.
//
// The id is UUID-shaped (RFC 9562 version 8, "custom") from the first 16 bytes of SHA-256 over a
// length-prefixed encoding: every field is written as `<byte length>:<value>`, and an absent
// version as `-`, so ('a', 'bc') and ('ab', 'c') differ, and so do an absent and an empty version.
import { hash } from 'node:crypto';

const DOMAIN = 'scorestream.score-id.v1';

export type ScoreIdParts = { runId: string; scorerId: string; scorerVersion?: string | undefined };

function field(value: string | undefined): string {
  return value === undefined ? '-' : `${Buffer.byteLength(value, 'utf8')}:${value}`;
}

export function scoreIdFor(parts: ScoreIdParts): string {
  const encoded = [DOMAIN, parts.runId, parts.scorerId].map(field).join('') + field(parts.scorerVersion);
  // One-shot hash: no Hash object per id (three ids per run event in the service).
  const bytes = hash('sha256', encoded, 'buffer').subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x80; // version 8
  bytes[8] = (bytes[8]! & 0x3f) | 0x80; // RFC 4122/9562 variant
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
