// filterRun: a declarative, synchronous `prepareRun` that shrinks a run to what a scorer needs
// (docs/scorers.md), e.g. only tool messages, or the last N remembered messages. It never
// mutates the run: it returns a shallow copy with new arrays only where something was filtered.
import { isRecord } from '../utils/message-text.ts';
import { keepsMessage } from './filter-messages.ts';
import type { MessageFilter } from './filter-messages.ts';
import { validateFilterRunOptions } from './filter-run-options.ts';
import type { FilterRunOptions } from './filter-run-options.ts';

/** The run fields filterRun reads or writes; any other key passes through untouched. */
export type FilterableRun = {
  input?: unknown;
  output?: unknown;
  requestContext?: unknown;
  expectedTrajectory?: unknown;
  groundTruth?: unknown;
};

function shrink(messages: unknown[], filter: MessageFilter | undefined, limit: number | undefined): unknown[] {
  const kept = filter === undefined ? messages : messages.filter((message) => keepsMessage(message, filter));
  // A limit of 0 (or none) means "no limit", not "keep none".
  return limit && kept.length > limit ? kept.slice(-limit) : kept;
}

/**
 * Builds a `prepareRun` from declarative options (validated now; a bad option throws a
 * TypeError naming it). Only `input.rememberedMessages` and an array `output` are filtered;
 * `inputMessages` and the system messages never are.
 */
export function filterRun(options?: FilterRunOptions): <Run extends FilterableRun>(run: Run) => Run {
  const validated = validateFilterRunOptions(options);
  const { partTypes, toolNames, maxRememberedMessages, maxOutputMessages } = validated;
  const filter: MessageFilter | undefined =
    partTypes === undefined && toolNames === undefined ? undefined : { partTypes, toolNames };

  return <Run extends FilterableRun>(run: Run): Run => {
    const result: FilterableRun = { ...run };
    if (validated.dropRequestContext) result.requestContext = undefined;
    if (validated.dropExpectedTrajectory) result.expectedTrajectory = undefined;
    if (validated.dropGroundTruth) result.groundTruth = undefined;

    const input = result.input;
    if (isRecord(input) && !Array.isArray(input) && 'rememberedMessages' in input) {
      const remembered = input.rememberedMessages ?? [];
      result.input = {
        ...input,
        // Something that is neither absent nor an array cannot be filtered; it passes through.
        rememberedMessages: Array.isArray(remembered) ? shrink(remembered, filter, maxRememberedMessages) : remembered,
      };
    }

    if (Array.isArray(result.output)) result.output = shrink(result.output, filter, maxOutputMessages);
    return result as Run;
  };
}
