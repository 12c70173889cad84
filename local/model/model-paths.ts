// Where local models live: `${XDG_CACHE_HOME:-~/.cache}/scorestream/models/<file>.gguf`, beside
// the Kafka jars, shared by every clone. A `<file>.verified` marker records that the file's
// SHA-256 was checked once, so later starts do not hash 253 MB again.
import { join } from 'node:path';
import { scorestreamCacheDirectory } from '../kafka/paths.ts';
import type { CatalogModel } from './model-catalog.ts';

export function modelsDirectory(environment: NodeJS.ProcessEnv = process.env): string {
  return join(scorestreamCacheDirectory(environment), 'models');
}

export function modelFilePath(model: CatalogModel, environment: NodeJS.ProcessEnv = process.env): string {
  return join(modelsDirectory(environment), model.fileName);
}

export function verifiedMarkerPath(modelFile: string): string {
  return `${modelFile}.verified`;
}
