// The JSON predicate language of scorer `filter`s, as a zod schema: the operators, their shapes and
// the message each mistake gets, at its place in the predicate (e.g. `args[1].left.path`). The
// predicate types are derived from it. JSON-only on purpose, so filters can live in config files and
// be checked at start-up; what each operator means is compile-predicate.ts (and docs/scorers.md,
// eligibility filters).
import { z } from 'zod';
import { PREDICATE_ROOTS } from './predicate-context.ts';
import { parsePath } from './predicate-paths.ts';

const COMPARISON_OPERATORS = ['eq', 'ne', 'lt', 'lte', 'gt', 'gte'] as const;
const membershipOperators = ['in', 'notIn'] as const;
const presenceOperators = ['exists', 'notExists'] as const;
const truthinessOperators = ['truthy', 'falsy'] as const;
const logicalOperators = ['and', 'or'] as const;

/** Every operator, in the order the schema (and its messages) list them. */
const PREDICATE_OPERATORS = [
  ...COMPARISON_OPERATORS,
  ...membershipOperators,
  ...presenceOperators,
  ...truthinessOperators,
  'contains',
  ...logicalOperators,
  'not',
] as const;

// Predicates nested deeper than this are refused; it also stops cycles in hand-built objects,
// which the recursive schema would otherwise follow forever.
const maxNesting = 64;

/** A value as the messages name it: `"text"`, 5, null, nothing, an array, an object. */
function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

const literalSchema = z.union([z.string(), z.number(), z.boolean(), z.null()], {
  error: (issue) => `a literal must be a string, a finite number, a boolean or null, got ${describe(issue.input)}`,
});

export type Literal = z.output<typeof literalSchema>;

/**
 * A path such as `requestContext.tier` or `${entity.id}`. A path whose root is not allowed (or that
 * is empty) is marked with `params.badRootPath`, so validatePredicate can list all of them in one
 * sentence, as Mastra words it.
 */
function pathSchema(roots: readonly string[]) {
  const allowed = new Set(roots);
  return z
    .string({ error: (issue) => `a path must be a string such as "requestContext.tier", got ${describe(issue.input)}` })
    .superRefine((path, context) => {
      const parsed = parsePath(path);
      if (parsed === undefined && path !== '' && !/^\$\{\s*\}$/.test(path)) {
        context.addIssue({ code: 'custom', message: `path ${JSON.stringify(path)} has an empty segment; write segments separated by single dots` });
      } else if (parsed === undefined || !allowed.has(parsed.root)) {
        context.addIssue({ code: 'custom', message: `path ${JSON.stringify(path)} must start with one of: ${roots.join(', ')}`, params: { badRootPath: path } });
      }
    });
}

/** A value: read from the context by path (`{ path }`), or given literally (`{ literal }`). */
function refSchema(path: ReturnType<typeof pathSchema>) {
  return z
    .strictObject(
      // exactOptional: `{ literal: undefined }` is a bad literal, not a missing one.
      { path: path.exactOptional(), literal: literalSchema.exactOptional() },
      {
        error: (issue) =>
          issue.code === 'unrecognized_keys'
            ? `unknown key(s) ${issue.keys.join(', ')} in a reference`
            : `a reference must be { path: "..." } or { literal: ... }, got ${describe(issue.input)}`,
      },
    )
    .superRefine(
      (ref, context) => {
        const keys = Number('path' in ref) + Number('literal' in ref);
        if (keys !== 1) context.addIssue({ code: 'custom', message: `a reference must have exactly one of path or literal, got ${keys === 2 ? 'both' : 'neither'}` });
      },
      // Also when the path or literal is wrong: key presence is all this check reads.
      { when: (payload) => typeof payload.value === 'object' && payload.value !== null && !Array.isArray(payload.value) },
    )
    .transform((ref) => (ref.path === undefined ? { literal: ref.literal as Literal } : { path: ref.path }));
}

/** One operator's object: its keys and no others, so a typo such as `rigth` is reported rather than ignored. */
function operatorSchema<Shape extends z.core.$ZodLooseShape>(shape: Shape) {
  const takes = Object.keys(shape).filter((key) => key !== 'op');
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `unknown key(s) ${issue.keys.join(', ')} for op '${String((issue.input as { op?: unknown }).op)}' (it takes ${takes.join(', ')})`
        : undefined,
  });
}

function nonEmptyList<Item extends z.ZodType>(item: Item, of: string) {
  return z.array(item, { error: (issue) => `must be a non-empty array of ${of}, got ${describe(issue.input)}` }).min(1, `must be a non-empty array of ${of}, got an empty array`);
}

/** Where a predicate nests deeper than maxNesting (a cycle always does); undefined when it does not. */
function tooDeepAt(node: unknown, depth: number, at: readonly PropertyKey[]): PropertyKey[] | undefined {
  if (depth > maxNesting) return [...at];
  if (typeof node !== 'object' || node === null) return undefined;
  const { op, arg, args } = node as Record<string, unknown>;
  if (op === 'not') return tooDeepAt(arg, depth + 1, [...at, 'arg']);
  if ((op === 'and' || op === 'or') && Array.isArray(args)) {
    for (const [index, child] of args.entries()) {
      const found = tooDeepAt(child, depth + 1, [...at, 'args', index]);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/**
 * The predicate schema for paths under `roots`. Its input is `unknown` (a filter is JSON written by
 * hand), its output the typed {@link Predicate}.
 */
function createPredicateSchema(roots: readonly string[]) {
  const path = pathSchema(roots);
  const ref = refSchema(path);
  const predicate = z.discriminatedUnion(
    'op',
    [
      operatorSchema({ op: z.enum(COMPARISON_OPERATORS), left: ref, right: ref }),
      operatorSchema({ op: z.enum(membershipOperators), value: ref, set: nonEmptyList(literalSchema, 'literals') }),
      operatorSchema({ op: z.enum(presenceOperators), path }),
      operatorSchema({ op: z.enum(truthinessOperators), value: ref }),
      /**
       * Scorestream addition: true iff `value` resolves to an array holding `item` (===), e.g.
       * `{ op: 'contains', value: { path: 'metadata.tags' }, item: 'beta' }`. MISSING or a non-array
       * gives false. (`eq`/`in` compare with ===, so an array-valued path never equals a literal.)
       */
      operatorSchema({ op: z.literal('contains'), value: ref, item: literalSchema }),
      operatorSchema({
        op: z.enum(logicalOperators),
        get args() {
          return nonEmptyList(predicate, 'predicates');
        },
      }),
      operatorSchema({
        op: z.literal('not'),
        get arg() {
          return predicate;
        },
      }),
    ],
    {
      error: (issue) =>
        issue.code === 'invalid_union'
          ? `unknown operator ${describe((issue.input as { op?: unknown }).op)}; use one of: ${PREDICATE_OPERATORS.join(', ')}`
          : `a predicate must be an object with an op, got ${describe(issue.input)}`,
    },
  );
  return z
    .unknown()
    .superRefine((value, context) => {
      const at = tooDeepAt(value, 0, []);
      if (at !== undefined) context.addIssue({ code: 'custom', message: `predicates nest deeper than ${maxNesting} levels`, path: at });
    })
    .pipe(predicate);
}

type PredicateSchema = ReturnType<typeof createPredicateSchema>;

const schemasByRoots = new WeakMap<readonly string[], PredicateSchema>();

/** The predicate schema for `roots`, built once per roots list. */
export function predicateSchemaFor(roots: readonly string[] = PREDICATE_ROOTS): PredicateSchema {
  let schema = schemasByRoots.get(roots);
  if (schema === undefined) schemasByRoots.set(roots, (schema = createPredicateSchema(roots)));
  return schema;
}

/** A filter predicate, as the schema returns it (its output type). */
export type Predicate = z.output<PredicateSchema>;
/** A value: `{ path }` read from the context, or `{ literal }` given as is. */
export type Ref = Extract<Predicate, { left: unknown }>['left'];
