// A judge's tier on one run (docs/spend-and-replay.md, escalation): a binding with `escalate` runs only on
// the runs its cheaper scorers' outcomes send to it (`escalated`), or in its random sample judged
// anyway (`sampled`, which keeps its agreement with the cheap tier measured on the runs that tier
// passed); otherwise it is not run (`not_escalated`, a decision record). Carried by the binding's
// score record, or its decision, so every judged or unjudged run says which tier decided.
import { z } from 'zod';
import { idSchema, samplingSchema } from './common.ts';

export const ESCALATION_TIERS = ['escalated', 'sampled', 'not_escalated'] as const;
export type EscalationTier = (typeof ESCALATION_TIERS)[number];

export const escalationSchema = z
  .object({
    /** `escalated`: the earlier scores asked for it; `sampled`: they did not, the sample did; `not_escalated`: neither. */
    tier: z.enum(ESCALATION_TIERS),
    /** The scorers whose outcomes on this run were read, by id. */
    after: z.array(idSchema).min(1),
    /** The sample's rate, and this run's bucket in it (sampled iff bucket < rate). */
    sample: samplingSchema,
  })
  .meta({ id: 'Escalation' });
export type Escalation = z.infer<typeof escalationSchema>;
