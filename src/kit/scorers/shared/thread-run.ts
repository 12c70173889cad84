// What every built-in thread scorer does first: take the thread out of its run, or say that the
// run is not a thread run (the scorer was bound with level 'run').
import { notScorable } from '../../scorer/not-scorable.ts';
import type { NotScorable } from '../../scorer/not-scorable.ts';
import { threadRunOf } from '../../scorer/thread-run.ts';
import type { ThreadRunView } from '../../scorer/thread-run.ts';

export function threadOrNotScorable(run: unknown, scorerId: string): ThreadRunView | NotScorable {
  return threadRunOf(run) ?? notScorable(`Not a conversation: '${scorerId}' scores threads; bind it with level: 'thread'.`);
}
