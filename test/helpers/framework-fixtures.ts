// The OTLP fixtures captured from the real agent frameworks (local/agents/capture.ts): each
// test/fixtures/otlp/<id>.jsonl holds the OTLP/JSON requests the framework's exporter sent, and
// <id>.logs.jsonl, for the frameworks that put content in log-based events, its logs requests;
// frameworks.json what was installed when. Read here into decoded spans — the log records as the
// carrier spans the decoder makes of them (otlp-log-record.ts) — grouped by trace.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeOtlpTraces } from '../../src/engine/otlp/decode-otlp.ts';
import type { OtlpSpan } from '../../src/engine/otlp/otlp-span.ts';

export const FIXTURE_DIRECTORY = join(import.meta.dirname, '..', 'fixtures', 'otlp');

/** `logRequests` and `logRecords` only for the frameworks that sent logs. */
export type FixtureManifestEntry = { id: string; title: string; conventions: string; packages: string[]; capturedAt: string; requests: number; spans: number; logRequests?: number; logRecords?: number };

export function fixtureManifest(): FixtureManifestEntry[] {
  return JSON.parse(readFileSync(join(FIXTURE_DIRECTORY, 'frameworks.json'), 'utf8')) as FixtureManifestEntry[];
}

function lines(file: string): Buffer[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => Buffer.from(line));
}

/** The raw lines of a fixture: one OTLP/JSON ExportTraceServiceRequest each. */
export function fixtureRequests(id: string): Buffer[] {
  return lines(join(FIXTURE_DIRECTORY, `${id}.jsonl`));
}

/** The raw lines of a fixture's logs: one OTLP/JSON ExportLogsServiceRequest each; none when the framework sent no logs. */
export function fixtureLogRequests(id: string): Buffer[] {
  const file = join(FIXTURE_DIRECTORY, `${id}.logs.jsonl`);
  return existsSync(file) ? lines(file) : [];
}

/** The fixture's spans, then its log records as carrier spans (each a child of the span it belongs to). */
export function fixtureSpans(id: string): OtlpSpan[] {
  return [...fixtureRequests(id), ...fixtureLogRequests(id)].flatMap((request) => {
    const decoded = decodeOtlpTraces(request, 'otlp_json');
    if (!decoded.success) throw new Error(`${id}: ${decoded.message}`);
    return decoded.data;
  });
}

/** The fixture's spans (and log-record carriers) per trace, in the order the traces first appear. */
export function fixtureTraces(id: string): OtlpSpan[][] {
  const traces = new Map<string, OtlpSpan[]>();
  for (const span of fixtureSpans(id)) traces.set(span.traceId, [...(traces.get(span.traceId) ?? []), span]);
  return [...traces.values()];
}
