// The parts of a scorer the service needs. The config schema checks a binding's `scorer` against
// this shape (it cannot be described by JSON Schema), and the pipeline calls nothing else. Its
// run() resolves with the kit's run result (AnyScorerRunResult), typed through to the score record; a value that
// is not one fails the pair where it enters the engine (scorer-outcome.ts).
import type { AnyScorerRunResult } from '../../kit/scorer/types.ts';

/** The parts of a scorer the service needs; every `createScorer(...)` result has them. */
export type ScorerLike = {
  readonly id: string;
  readonly name?: string;
  /** A classifier scorer of a choice question: the choices its records can select (checked against a binding's `pass.labels`). */
  readonly choices?: readonly string[];
  run(input: Record<string, unknown>, options?: Record<string, unknown>): Promise<AnyScorerRunResult>;
};
