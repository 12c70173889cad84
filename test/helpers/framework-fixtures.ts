// The OTLP fixtures captured from the real agent frameworks (local/agents/capture.ts): each
// test/fixtures/otlp/<id>.jsonl holds the OTLP/JSON requests the framework's exporter sent, and
// frameworks.json what was installed when. Read here into decoded spans, grouped by trace.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeOtlpTraces } from '../../src/engine/otlp/decode-otlp.ts';
import type { OtlpSpan } from '../../src/engine/otlp/otlp-span.ts';

export const FIXTURE_DIRECTORY = join(import.meta.dirname, '..', 'fixtures', 'otlp');

export type FixtureManifestEntry = { id: string; title: string; conventions: string; packages: string[]; capturedAt: string; requests: number; spans: number };

export function fixtureManifest(): FixtureManifestEntry[] {
  return JSON.parse(readFileSync(join(FIXTURE_DIRECTORY, 'frameworks.json'), 'utf8')) as FixtureManifestEntry[];
}

/** The raw lines of a fixture: one OTLP/JSON ExportTraceServiceRequest each. */
export function fixtureRequests(id: string): Buffer[] {
  return readFileSync(join(FIXTURE_DIRECTORY, `${id}.jsonl`), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => Buffer.from(line));
}

export function fixtureSpans(id: string): OtlpSpan[] {
  return fixtureRequests(id).flatMap((request) => {
    const decoded = decodeOtlpTraces(request, 'otlp_json');
    if (!decoded.success) throw new Error(`${id}: ${decoded.message}`);
    return decoded.data;
  });
}

/** The fixture's spans per trace, in the order the traces first appear. */
export function fixtureTraces(id: string): OtlpSpan[][] {
  const traces = new Map<string, OtlpSpan[]>();
  for (const span of fixtureSpans(id)) traces.set(span.traceId, [...(traces.get(span.traceId) ?? []), span]);
  return [...traces.values()];
}
