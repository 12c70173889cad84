// The loop guard: Scorestream must never score its own work, or a trace pipeline that turns our
// records or judge spans back into run events would feed the service its own output for ever.
// Two checks, one per stage of a message: before decoding, our own records (the header
// `scorestream-origin`, set on everything we publish); after decoding, run events that describe
// Scorestream's own work (`metadata.source === 'scorestream'`, or the tag `scorestream:judge`).
// Both are skipped and counted, never dead-lettered (docs/delivery.md, the loop guard).
import type { MessageHeaders } from '../otel/kafka-headers.ts';

/** Set on every record we publish, so our own output is never taken for agent traffic. */
export const ORIGIN_HEADER = 'scorestream-origin';

/** The headers of every record we publish; shared, as the clients only read headers while encoding. */
export const originHeaders: MessageHeaders = Object.freeze({ [ORIGIN_HEADER]: 'scorestream' });

/** Tag that marks a run event as Scorestream's own work (with or instead of `metadata.source`). */
export const SCORESTREAM_RUN_TAG = 'scorestream:judge';

/** A record we published ourselves (checked before decoding). */
export function isOwnOutput(headers: MessageHeaders | undefined): boolean {
  return headers !== undefined && headers[ORIGIN_HEADER] !== undefined;
}

/** A run event that describes Scorestream's own work, e.g. a judge call turned into a run event. */
export function isScorestreamRun(metadata: { source?: unknown; tags?: readonly string[] } | undefined): boolean {
  if (metadata === undefined) return false;
  return metadata.source === 'scorestream' || (Array.isArray(metadata.tags) && metadata.tags.includes(SCORESTREAM_RUN_TAG));
}
