// Writes the JSON Schema of every wire contract to schemas/ (`npm run schemas`). The unit test
// test/unit/src/kit/contracts/json-schemas.test.ts fails when these files are stale.
import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { contractJsonSchemas, serializeJsonSchema } from '../src/kit/contracts/json-schemas.ts';

const directory = fileURLToPath(new URL('../schemas/', import.meta.url));
await mkdir(directory, { recursive: true });
for (const [file, document] of Object.entries(contractJsonSchemas())) {
  await writeFile(new URL(file, `file://${directory}`), serializeJsonSchema(document));
  console.log(`wrote schemas/${file}`);
}
