// Which version of a thread scorer's score a thread feedback is compared with (docs/feedback.md,
// feedback on a thread): the first scored at or after the feedback, else the latest before it.
import { describe, expect, it } from 'vitest';
import { comparedVersion } from '../../../../../src/engine/agreement/compared-version.ts';

const version = (number: number, scoredAtMs: number) => ({ name: `v${number}`, thread: { version: number, scoredAtMs } });
const namesOf = (feedbackAtMs: number, versions: ReturnType<typeof version>[]) => comparedVersion(feedbackAtMs, versions)?.name;

describe('comparedVersion', () => {
  it('is the first version scored at or after the feedback: the one open when the person spoke', () => {
    expect(namesOf(100, [version(1, 200), version(2, 300)])).toBe('v1');
    expect(namesOf(250, [version(1, 200), version(2, 300), version(3, 400)])).toBe('v2');
    expect(namesOf(300, [version(1, 200), version(2, 300)]), 'at the same instant').toBe('v2');
  });

  it('is the latest version scored before the feedback while none is scored after it, and nothing without versions', () => {
    expect(namesOf(500, [version(1, 200), version(2, 300)])).toBe('v2');
    expect(namesOf(500, [])).toBeUndefined();
  });

  it('only moves forward as versions arrive in order, and stops at the first one scored after the feedback', () => {
    const arrived = [version(1, 200), version(2, 300), version(3, 400), version(4, 500)];
    const answers = arrived.map((_, count) => namesOf(350, arrived.slice(0, count + 1)));
    expect(answers).toEqual(['v1', 'v2', 'v3', 'v3']);
  });

  it('does not depend on the order the versions are held in', () => {
    const versions = [version(1, 200), version(2, 300), version(3, 400)];
    for (const feedbackAtMs of [100, 250, 350, 450]) {
      expect(namesOf(feedbackAtMs, [...versions].reverse())).toBe(namesOf(feedbackAtMs, versions));
    }
  });
});
