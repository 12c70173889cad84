// Where a classifier scorer finds a classifier it names by id (docs/scorers.md, classifier
// scorers). Mastra looks it up in the Mastra instance the scorer is registered with; Scorestream
// has no such instance, so the registry is handed in: to the scorer at creation or to each run.

import type { Classifier } from './classifier.ts';

/** A lookup by classifier id, or a record of classifiers (searched by their `id`, not their key). */
export type ClassifierRegistry = { get(classifierId: string): Classifier | undefined } | Readonly<Record<string, Classifier>>;

const howToRegister =
  'Pass it as `classifiers` to createClassifierScorer() or to scorer.run(input, { classifiers }), or pass the classifier instance directly.';

export function resolveRegisteredClassifier(
  classifierId: string,
  scorerId: string,
  registry: ClassifierRegistry | undefined,
): Classifier {
  if (registry === undefined) {
    throw new Error(
      `Classifier '${classifierId}' for scorer '${scorerId}' cannot be resolved because no classifier registry was given. ${howToRegister}`,
    );
  }
  let found: Classifier | undefined;
  let lookupError: unknown;
  try {
    found = lookUp(registry, classifierId);
  } catch (error) {
    lookupError = error;
  }
  if (found === undefined) {
    throw new Error(`Classifier '${classifierId}' not found for scorer '${scorerId}'. ${howToRegister}`, {
      cause: lookupError ?? new Error(`The classifier registry has no classifier with id '${classifierId}'.`),
    });
  }
  return found;
}

function lookUp(registry: ClassifierRegistry, classifierId: string): Classifier | undefined {
  if (typeof registry.get === 'function') {
    return (registry as { get(classifierId: string): Classifier | undefined }).get(classifierId) ?? undefined;
  }
  return Object.values(registry as Record<string, Classifier>).find((classifier) => classifier?.id === classifierId);
}
