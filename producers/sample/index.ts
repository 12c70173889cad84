// Sample agent traffic for demos, tests and benchmarks.
export { inDegradation } from './degradation.ts';
export type { Degradation } from './degradation.ts';
export { createSampleRunGenerator, generateSampleRuns, sampleRunContext } from './generate-sample-runs.ts';
export type { SampleRun, SampleRunGenerator, SampleRunGeneratorOptions } from './generate-sample-runs.ts';
export { createRandom } from './prng.ts';
export type { Random } from './prng.ts';
export { createSampleFeedback } from './sample-feedback.ts';
export type { SampleFeedbackOptions } from './sample-feedback.ts';
