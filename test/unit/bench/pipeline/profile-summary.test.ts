import { describe, expect, it } from 'vitest';
import { summariseProfile } from '../../../../bench/pipeline/profile-summary.ts';

const frame = (functionName: string, url = '') => ({ functionName, url, lineNumber: 0 });

describe('summariseProfile', () => {
  it('gives each busy sample to the first part found from its leaf up, and leaves idle time out', () => {
    const profile = {
      nodes: [
        { id: 1, callFrame: frame('(root)'), children: [2, 5, 6] },
        { id: 2, callFrame: frame('emitRecord', 'file:///app/consumers/emitter/record-emitter.ts'), children: [3] },
        { id: 3, callFrame: frame('stringify', 'file:///app/src/kit/contracts/fit-score-record.ts'), children: [4] },
        { id: 4, callFrame: frame('JSON.stringify') },
        { id: 5, callFrame: frame('(garbage collector)') },
        { id: 6, callFrame: frame('(idle)') },
      ],
      // JSON under the emitter is the floor's record JSON, not the emitter; the emitter's own sample is its own.
      samples: [4, 4, 2, 5, 6],
      timeDeltas: [100, 100, 100, 100, 400],
    };
    const summary = summariseProfile(profile);
    expect(summary.busySeconds).toBeCloseTo(400e-6);
    expect(summary.idleSeconds).toBeCloseTo(400e-6);
    expect(Object.fromEntries(summary.parts)).toEqual({ 'floor: score records to JSON': 0.5, 'own: emitter and publisher': 0.25, 'garbage collection': 0.25 });
    expect(summary.topSelf[0]).toEqual(['JSON.stringify ', 0.5]);
  });

  it('counts a sample with module loading anywhere in its stack as start-up, even in a library module body', () => {
    const profile = {
      nodes: [
        { id: 1, callFrame: frame('(root)'), children: [2] },
        { id: 2, callFrame: frame('wrapModuleLoad', 'node:internal/modules/cjs/loader'), children: [3] },
        { id: 3, callFrame: frame('', 'file:///app/node_modules/kafkajs/src/index.js') },
      ],
      samples: [3],
      timeDeltas: [100],
    };
    expect(summariseProfile(profile).parts).toEqual([['start-up (module loading)', 1]]);
  });
});
