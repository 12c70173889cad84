// UUID-shaped ids derived from their parts, so the same thing always gets the same id: a run
// scored again (scoreIdFor), feedback sent twice (feedbackIdFor), a pair measured again
// (agreementIdFor). RFC 9562 version 8 ("custom") from the first 16 bytes of SHA-256 over a
// length-prefixed encoding: each part is written as `<UTF-8 byte length>:<value>` and an absent
// one as `-`, so ('a', 'bc') and ('ab', 'c') differ, and so do an absent and an empty part. The
// domain, written first the same way, keeps ids of different kinds apart.
import { hash } from 'node:crypto';

function field(value: string | undefined): string {
  return value === undefined ? '-' : `${Buffer.byteLength(value, 'utf8')}:${value}`;
}

export function deterministicId(domain: string, parts: readonly (string | undefined)[]): string {
  const encoded = field(domain) + parts.map(field).join('');
  // One-shot hash: no Hash object per id (several ids per run event in the service).
  const bytes = hash('sha256', encoded, 'buffer').subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x80; // version 8
  bytes[8] = (bytes[8]! & 0x3f) | 0x80; // RFC 4122/9562 variant
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
