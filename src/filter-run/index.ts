// Barrel of src/filter-run: the declarative `prepareRun` (docs/scorers.md, prepareRun and filterRun).
export { filterRun } from './filter-run.ts';
export type { FilterableRun } from './filter-run.ts';
export type { FilterRunOptions } from './filter-run-options.ts';
