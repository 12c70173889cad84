import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { contractJsonSchemas, serializeJsonSchema } from '../../../../../src/kit/contracts/json-schemas.ts';

const schemasDirectory = new URL('../../../../../schemas/', import.meta.url);

describe('checked-in JSON Schemas', () => {
  const documents = contractJsonSchemas();

  it('covers the twelve contracts', () => {
    expect(Object.keys(documents).sort()).toEqual(['agent-run-event.v1.json', 'agreement-record.v1.json', 'alert-record.v1.json', 'dead-letter.v1.json', 'decision-record.v1.json', 'feedback-record.v1.json', 'replay-state.v1.json', 'rescore-request.v1.json', 'retry-message.v1.json', 'score-record.v1.json', 'thread-ended.v1.json', 'thread-turn.v1.json']);
  });

  for (const [file, document] of Object.entries(documents)) {
    it(`schemas/${file} matches the zod contract`, async () => {
      const checkedIn = await readFile(new URL(file, schemasDirectory), 'utf8').catch(() => '');
      expect(checkedIn === serializeJsonSchema(document), `schemas/${file} is stale or missing: run \`npm run schemas\` and commit the result`).toBe(true);
    });
  }

  it('describes message createdAt as a date-time string (the wire side of the Date codec)', () => {
    const definitions = documents['agent-run-event.v1.json']!.$defs as Record<string, { properties: Record<string, unknown> }>;
    expect(definitions.DbMessage!.properties.createdAt).toMatchObject({ type: 'string', format: 'date-time' });
  });
});
