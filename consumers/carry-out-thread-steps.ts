// Carrying out a by-thread partition's steps that were ready together (thread-source.ts), in the
// order the crash guarantees rest on (docs/threads.md, the transport):
//   records    every close's score or decision record, each to its step's output as soon as its
//              scorer is done; closes of the same thread and binding one after another (the
//              latest-score view keeps the last record of a key, so a later version must not
//              overtake an earlier one);
//   changelog  then — once a step's records were all accepted — its changelog writes, the steps'
//              writes in call order; consecutive steps with the same output (at-least-once: the
//              one publisher) as one publish, so the whole batch waits for one acknowledgement.
// A step whose records were not all accepted (a bug in its scoring; after the hard stop, a publish
// given up) writes nothing: its state must not say "scored" without the score, and its message
// fails (dead-lettered, or abandoned after the hard stop). Once a changelog publish fails, no later
// write goes out (the changelog is written in call order or not at all), and their steps fail too.
import type { ChangelogWrite, ThreadOutcome } from '../src/engine/threads/thread-stage.ts';
import type { JobOwner, PerformJob } from './run-source.ts';

/** A step of the thread state and the message (or, for a timer's step, the detached output) it belongs to. */
export type ThreadStepWork = { readonly step: ThreadOutcome; readonly owner: JobOwner };

/** The closes of a step, each with its work (ThreadOutcome.closes follows the close and decision effects in order). */
function closesOf(step: ThreadOutcome) {
  const effects = step.effects.filter((effect) => effect.type === 'close' || effect.type === 'decision');
  return effects.map((effect, index) => ({ effect, work: step.closes[index]! }));
}

/** Every close's record of every step, to its step's output; per step, whether all were accepted. */
function publishRecords(steps: readonly ThreadStepWork[], perform: PerformJob): Promise<PromiseSettledResult<void>[]> {
  const latest = new Map<string, Promise<unknown>>();
  const published = steps.map(({ step, owner }) =>
    Promise.all(
      closesOf(step).map(({ effect, work }) => {
        const key = `${effect.key}\u0000${effect.scorerId}\u0000${effect.scorerVersion ?? ''}`;
        const after = latest.get(key);
        const emit = () => perform({ kind: 'thread-close', closedBy: effect.closedBy, work }, owner);
        const done = after === undefined ? emit() : after.then(() => emit(), () => emit());
        latest.set(key, done);
        return done;
      }),
    ).then(() => undefined),
  );
  return Promise.allSettled(published);
}

/** The writes of `steps` (those whose records were accepted) in call order, one publish per run of steps sharing an output. */
async function writeChangelog(steps: readonly ThreadStepWork[], recorded: readonly PromiseSettledResult<void>[], partition: number, perform: PerformJob): Promise<PromiseSettledResult<void>[]> {
  const results: PromiseSettledResult<void>[] = [...recorded];
  let group: { owner: JobOwner; writes: ChangelogWrite[]; members: number[] } | undefined;
  let failure: { reason: unknown } | undefined;
  const flush = async () => {
    if (group === undefined) return;
    const { owner, writes, members } = group;
    group = undefined;
    if (failure === undefined) {
      try {
        await perform({ kind: 'thread-state', writes, partition }, owner);
        return;
      } catch (error) {
        failure = { reason: error };
      }
    }
    for (const member of members) results[member] = { status: 'rejected', reason: failure.reason };
  };
  for (const [index, { step, owner }] of steps.entries()) {
    if (recorded[index]!.status === 'rejected' || step.changelog.length === 0) continue;
    if (group !== undefined && group.owner.output !== owner.output) await flush();
    if (group === undefined) group = { owner, writes: [...step.changelog], members: [index] };
    else {
      group.writes.push(...step.changelog);
      group.members.push(index);
      group.owner = owner; // the latest step's message names the publish in logs
    }
  }
  await flush();
  return results;
}

/**
 * Carries out `steps` (in call order): their records, then their changelog writes. Resolves, per
 * step, fulfilled once everything of it was accepted by its output, or rejected with why not.
 */
export async function carryOutThreadSteps(steps: readonly ThreadStepWork[], partition: number, perform: PerformJob): Promise<PromiseSettledResult<void>[]> {
  const recorded = await publishRecords(steps, perform);
  return writeChangelog(steps, recorded, partition, perform);
}
