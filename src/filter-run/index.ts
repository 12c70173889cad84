// Barrel of src/filter-run: the declarative `prepareRun` of SCORER_SPEC.md §6.
export { filterRun } from './filter-run.ts';
export type { FilterableRun } from './filter-run.ts';
export type { FilterRunOptions } from './filter-run-options.ts';
