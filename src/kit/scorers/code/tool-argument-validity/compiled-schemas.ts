// The parameter schemas of the offered tools, compiled once each and kept in a bounded cache
// (tool-argument-validity). Schemas arrive with every run, from producers rather than from us, so
// ajv is set up not to trust them: no `loadSchema` is given, so ajv never fetches a remote `$ref`
// (compiling fails with a missing reference and the call is unchecked); `$id`s are not registered,
// so two tools naming the same `$id` with different contents cannot clash or shadow each other;
// `$async` schemas, oversized and over-deep schemas are refused; and ajv's warnings stay out of
// the service's log.
import { createHash } from 'node:crypto';
import { Ajv } from 'ajv/dist/ajv.js';
import type { Options, ValidateFunction } from 'ajv/dist/ajv.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { printableWithin } from '../../shared/reason-text.ts';
import { canonicalJson, TooDeepToCompare } from '../../shared/canonical-json.ts';

// Real tool schemas are a few kilobytes; a bigger one costs a compile (generated code grows with it)
// and cache memory for every distinct copy a hostile producer sends.
const maxSchemaLength = 64_000;
// Schemas up to this length key the compile cache as they are (1,000 of them: at most 4 MB).
const maxSchemaKeyLength = 4_096;
const maxSchemaDepth = 64;

const ajvOptions: Options = {
  strict: false, // schemas in the field carry keywords and formats of their own
  allErrors: true, // every problem is found; the record keeps the first few
  validateFormats: false, // no format plugin is installed: `format` is an annotation here
  addUsedSchema: false, // a schema's `$id` is not registered (see the header)
  logger: false,
  // No `loadSchema`, on purpose: with it, ajv would fetch a remote `$ref` named by the schema.
};

type Dialect = 'draft-07' | '2020-12';
export type CompiledSchema = { validate: ValidateFunction } | { unusable: string };

class UnusableSchema extends Error {}



/** `$schema` names the dialect; absent, draft-07 (what function-calling APIs document for `parameters`). */
function dialectOf(schema: Record<string, unknown>): Dialect {
  const uri = schema.$schema;
  if (uri === undefined) return 'draft-07';
  const normalized = typeof uri === 'string' ? uri.replace(/^https:/, 'http:').replace(/#$/, '') : '';
  if (normalized === 'http://json-schema.org/draft-07/schema') return 'draft-07';
  if (normalized === 'http://json-schema.org/draft/2020-12/schema') return '2020-12';
  throw new UnusableSchema(`unsupported $schema ${printableWithin(JSON.stringify(uri) ?? '', 80)} (supported: draft-07, 2020-12)`);
}


type CacheEntry = { compiled: CompiledSchema; dialect: Dialect; schema: object };

/**
 * `compiledFor(parameters)`: the validator of a schema, compiled on first sight; at most `maxSize`
 * kept, the least recently used dropped first. Each ajv instance also keeps what it compiled, so a
 * dropped schema is removed from it too.
 */
export function createSchemaCache(maxSize: number): (parameters: Record<string, unknown>) => CompiledSchema {
  const entries = new Map<string, CacheEntry>();
  const instances = new Map<Dialect, Ajv | Ajv2020>();

  function ajvFor(dialect: Dialect): Ajv | Ajv2020 {
    let ajv = instances.get(dialect);
    if (!ajv) {
      ajv = dialect === 'draft-07' ? new Ajv(ajvOptions) : new Ajv2020(ajvOptions);
      instances.set(dialect, ajv);
    }
    return ajv;
  }

  function compile(canonical: string, dialect: Dialect): { compiled: CompiledSchema; schema: object } {
    // A copy of our own: nothing from the run is held, and `$schema` (already read) cannot send
    // ajv looking for a meta-schema under an alias it does not know (https, a trailing '#').
    const schema = JSON.parse(canonical) as Record<string, unknown>;
    delete schema.$schema;
    // An async validator answers with a promise, which would pass every call as valid.
    if (schema.$async === true) return { compiled: { unusable: 'asynchronous schemas ($async) are not supported' }, schema };
    const ajv = ajvFor(dialect);
    try {
      return { compiled: { validate: ajv.compile(schema) }, schema };
    } catch (error) {
      ajv.removeSchema(schema);
      return { compiled: { unusable: error instanceof Error ? error.message : String(error) }, schema };
    }
  }

  // A schema as its producer writes it, text → its cache key: the same producer sends the same
  // text every run, and JSON.stringify is native, where canonicalising walks the schema in script.
  const keysByText = new Map<string, string>();

  // The same definition object answers each call of a run to its tool without canonicalising it again.
  const byObject = new WeakMap<object, CompiledSchema>();

  return function compiledFor(parameters: Record<string, unknown>): CompiledSchema {
    let known = byObject.get(parameters);
    if (known === undefined) byObject.set(parameters, (known = lookUp(parameters)));
    return known;
  };

  function lookUp(parameters: Record<string, unknown>): CompiledSchema {
    let text: string | undefined;
    try {
      text = JSON.stringify(parameters);
    } catch {
      // A cycle or a BigInt in an in-process definition: canonicalJson says why below.
    }
    const aliased = text === undefined ? undefined : keysByText.get(text);
    const hit = aliased === undefined ? undefined : entries.get(aliased);
    if (aliased !== undefined && hit !== undefined) return touched(aliased, hit).compiled;

    let canonical: string;
    let dialect: Dialect;
    try {
      dialect = dialectOf(parameters);
      canonical = canonicalJson(parameters, maxSchemaDepth);
    } catch (error) {
      if (error instanceof UnusableSchema || error instanceof TooDeepToCompare) return { unusable: error.message };
      throw error;
    }
    if (canonical.length > maxSchemaLength) return { unusable: `larger than ${maxSchemaLength} characters` };
    // A large schema is keyed by its digest, so the cache's keys stay small however large the
    // schemas are; the usual few hundred characters are their own key.
    const key = `${dialect}:${canonical.length <= maxSchemaKeyLength ? canonical : createHash('sha256').update(canonical).digest('base64')}`;
    if (text !== undefined && text.length <= maxSchemaKeyLength) {
      keysByText.set(text, key);
      if (keysByText.size > maxSize) keysByText.delete(keysByText.keys().next().value!);
    }
    const cached = entries.get(key);
    if (cached) return touched(key, cached).compiled;
    const { compiled, schema } = compile(canonical, dialect);
    entries.set(key, { compiled, dialect, schema });
    if (entries.size > maxSize) {
      const [oldestKey, oldest] = entries.entries().next().value!;
      entries.delete(oldestKey);
      ajvFor(oldest.dialect).removeSchema(oldest.schema);
    }
    return compiled;
  }

  /** The entry, now the most recently used. */
  function touched(key: string, entry: CacheEntry): CacheEntry {
    entries.delete(key);
    entries.set(key, entry);
    return entry;
  }
}
