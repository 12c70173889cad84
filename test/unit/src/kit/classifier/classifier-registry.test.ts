import { describe, expect, it } from 'vitest';
import { Classifier } from '../../../../../src/kit/classifier/classifier.ts';
import { resolveRegisteredClassifier } from '../../../../../src/kit/classifier/classifier-registry.ts';
import { decisionResult, questions, scriptedDecisionModel } from './fixtures.ts';

const { model } = scriptedDecisionModel([decisionResult()]);
const quality = new Classifier({ id: 'quality', model, questions });

describe('resolveRegisteredClassifier', () => {
  it('explains how to register when there is no registry', () => {
    expect(() => resolveRegisteredClassifier('quality', 'tone-scorer', undefined)).toThrow(
      "Classifier 'quality' for scorer 'tone-scorer' cannot be resolved because no classifier registry was given. " +
        'Pass it as `classifiers` to createClassifierScorer() or to scorer.run(input, { classifiers }), or pass the classifier instance directly.',
    );
  });

  it('finds a classifier in a record by its id, not its key', () => {
    expect(resolveRegisteredClassifier('quality', 's', { anyKey: quality })).toBe(quality);
    expect(() => resolveRegisteredClassifier('anyKey', 's', { anyKey: quality })).toThrow(
      "Classifier 'anyKey' not found for scorer 's'.",
    );
  });

  it('asks a registry with get(id)', () => {
    const asked: string[] = [];
    const registry = {
      get: (classifierId: string) => {
        asked.push(classifierId);
        return classifierId === 'quality' ? quality : undefined;
      },
    };
    expect(resolveRegisteredClassifier('quality', 's', registry)).toBe(quality);
    expect(asked).toEqual(['quality']);
    expect(resolveRegisteredClassifier('quality', 's', new Map([['quality', quality]]))).toBe(quality);
  });

  it('reports an unknown id with the registry error as its cause', () => {
    const registryError = new Error('registry offline');
    const registry = {
      get: () => {
        throw registryError;
      },
    };
    let error: unknown;
    try {
      resolveRegisteredClassifier('quality', 'tone-scorer', registry);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe(
      "Classifier 'quality' not found for scorer 'tone-scorer'. Pass it as `classifiers` to createClassifierScorer() or to scorer.run(input, { classifiers }), or pass the classifier instance directly.",
    );
    expect((error as Error).cause).toBe(registryError);
  });

  it('gives a cause naming the id when the registry simply lacks it', () => {
    let error: unknown;
    try {
      resolveRegisteredClassifier('missing', 's', { get: () => undefined });
    } catch (caught) {
      error = caught;
    }
    expect(((error as Error).cause as Error).message).toBe("The classifier registry has no classifier with id 'missing'.");
  });
});
