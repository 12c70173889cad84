// Lint: typescript-eslint's recommended rules; type-aware checks stay in `tsc`. The layout's
// one-way import rule (docs/architecture.md) is enforced here: each folder may import only the
// folders below it — src ← otel ← kafka ← producers ← consumers ← service ← cli, and local/ (the
// embedded local parts) from src only. kafka/ is the Kafka plumbing (clients, security, pre-flight,
// access errors, topics). dashboard/ (the web dashboard's server) sits beside service/: it may
// import src, otel, kafka, producers, consumers and service; cli imports it. Its page
// (dashboard/public/) is plain browser JavaScript. Inside src/, the public scorer kit (src/kit/)
// never imports the engine (src/engine/), and the contracts (src/kit/contracts/) import nothing
// of the project but each other: they are the leaf every layer reads. No file takes part in an
// import cycle (import-x/no-cycle, as OpenTelemetry's API package checks in CI; it follows value
// imports, as a type-only import is erased).
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

const layers = ['src', 'otel', 'kafka', 'producers', 'consumers', 'service', 'cli'];
const above = (layer) => layers.slice(layers.indexOf(layer) + 1);
// kafka/ is the one Kafka edge: no other layer constructs or types itself against a client library.
const kafkaClients = ['kafkajs', '@platformatic/kafka'].map((name) => ({ name, message: 'only kafka/ (the one Kafka edge, kafka/kafka-edge.ts) imports a Kafka client library (docs/architecture.md)' }));
const forbid = (folders, why, { clients = true } = {}) => ({
  'no-restricted-imports': ['error', { patterns: folders.map((folder) => ({ group: [`**/${folder}/**`], message: why })), ...(clients ? { paths: kafkaClients } : {}) }],
});

export default tseslint.config(
  { ignores: ['node_modules/', '.tools/', 'dist/', 'schemas/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    // Cycles anywhere in the project's TypeScript (the type-only ones too: they are a knot for a reader as much).
    files: ['**/*.ts'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/extensions': ['.ts', '.js'], 'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] }, 'import-x/resolver-next': [createNodeResolver()] },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  ...layers.slice(0, -1).map((layer) => ({
    files: [`${layer}/**/*.ts`],
    rules: forbid([...above(layer), 'local', 'dashboard'], `${layer}/ may import only the layers below it (docs/architecture.md): src ← otel ← kafka ← producers ← consumers ← service ← dashboard ← cli`, { clients: layer !== 'kafka' }),
  })),
  {
    // The producer SDK is the one exception to the edge it documents: its public options take a
    // kafkajs client and kafkajs settings (docs/ai-sdk.md), in the agent's process, not the service's.
    files: ['producers/run-publisher.ts'],
    rules: forbid([...above('producers'), 'local', 'dashboard'], 'producers/ may import only the layers below it (docs/architecture.md)', { clients: false }),
  },
  {
    files: ['cli/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: kafkaClients }] },
  },
  {
    // The engine's core stays typed from a scorer's run result to the record it publishes: a record
    // or judge evidence is built as a typed literal, never cast, and outcomes are told apart by
    // their discriminant, not by sniffing for a record's field.
    files: ['src/engine/**/*.ts', 'consumers/**/*.ts', 'service/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "TSAsExpression > TSTypeReference[typeName.name=/^(ScoreRecord|JudgeResults)$/]", message: 'build the record as a typed literal (src/engine/pipeline/build-score-record.ts) instead of casting to it' },
        { selector: "BinaryExpression[operator='in'][left.value='schemaVersion']", message: "tell outcomes apart by their `kind` (BindingResult, ScoringOutcome), not by a record's field" },
      ],
    },
  },
  {
    // Flat config replaces a rule's settings per file: the src layer's restrictions are stated again with the kit's.
    files: ['src/kit/**/*.ts'],
    ignores: ['src/kit/contracts/**'],
    rules: forbid([...above('src'), 'local', 'dashboard', 'engine'], 'src/kit/ (the public scorer kit) imports only itself and external packages (docs/architecture.md): the engine builds on the kit, never the other way'),
  },
  {
    files: ['src/kit/contracts/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: kafkaClients,
          patterns: [{ group: ['../*', '!../contracts/**', '**/engine/**', '**/kit/**', ...[...above('src'), 'local', 'dashboard'].map((folder) => `**/${folder}/**`)], message: 'src/kit/contracts/ is the leaf every layer reads: it imports only the other contracts and external packages (docs/architecture.md)' }],
        },
      ],
    },
  },
  {
    files: ['dashboard/**/*.ts'],
    rules: forbid(['cli', 'local'], 'dashboard/ may import src, otel, kafka, producers, consumers and service (docs/architecture.md); cli imports it'),
  },
  {
    files: ['dashboard/public/**/*.js'],
    languageOptions: {
      sourceType: 'module',
      globals: Object.fromEntries(['window', 'document', 'EventSource', 'fetch', 'URL', 'URLSearchParams', 'Node', 'setTimeout', 'clearTimeout', 'console'].map((name) => [name, 'readonly'])),
    },
  },
  {
    // The framework agents' JS apps (local/agents/apps/) run in a Node folder of their own; the tests' module hooks (test/fixtures/hooks/) in Node too.
    files: ['local/agents/apps/**/*.mjs', 'test/fixtures/hooks/**/*.mjs'],
    languageOptions: { sourceType: 'module', globals: { process: 'readonly', console: 'readonly' } },
  },
  {
    // The top-level kafka/ by its relative path: `../kafka/` from local/collector/ is local/kafka/.
    files: ['local/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...[...layers.slice(1).filter((layer) => layer !== 'kafka'), 'dashboard'].map((folder) => `**/${folder}/**`),
            '../../kafka/**',
            '../../../kafka/**',
          ].map((group) => ({ group: [group], message: 'local/ (the embedded local parts) may import only src/ (docs/architecture.md)' })),
        },
      ],
    },
  },
);
