// The names of a scorer pipeline, listed once: the four steps a scorer is built from, in the
// order they run, and the stages a pipeline can stop at (the run-shaping hooks, then the steps).
// The step types, the score record's stage enum, its per-step fields and every check of a stage
// name derive from these two lists.

/** The steps of a scorer, in the order they run (createScorer refuses any other order). */
export const SCORER_STEPS = ['preprocess', 'analyze', 'generateScore', 'generateReason'] as const;
export type StepName = (typeof SCORER_STEPS)[number];

/** Where a scorer pipeline can stop: the run-shaping hooks, then the four steps. */
export const PIPELINE_STAGES = ['prepareRun', 'filterRun', ...SCORER_STEPS] as const;
export type PipelineStage = (typeof PIPELINE_STAGES)[number];

const stages: ReadonlySet<unknown> = new Set(PIPELINE_STAGES);

export function isPipelineStage(value: unknown): value is PipelineStage {
  return stages.has(value);
}

/** One field per step, in step order: the shape of a zod object such as the record's `prompts`. */
export function fieldPerStep<T>(field: T): Record<StepName, T> {
  return Object.fromEntries(SCORER_STEPS.map((step) => [step, field])) as Record<StepName, T>;
}
