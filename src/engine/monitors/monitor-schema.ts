// The in-stream monitors of a config (`monitors: [...]`; docs/alerts.md, in-stream monitors): each
// a windowed aggregate of one scorer's records (optionally one agent's or tenant's), a threshold,
// how long the breach must last (`for`), the least time between two breach notices (`cooldown`)
// and what a window without data means (`noData`). Durations are strings ('10m'), kept as ms.
import { z } from 'zod';
import { MONITOR_AGGREGATIONS, NO_DATA_BEHAVIOURS } from '../../kit/contracts/alert-record.ts';
import { durationSchema } from '../../kit/utils/duration.ts';

const finite = (field: string) => z.number({ error: `${field} must be a finite number` }).refine(Number.isFinite, `${field} must be a finite number`);

export const monitorThresholdSchema = z
  .strictObject(
    { below: finite('below').optional(), above: finite('above').optional() },
    { error: (issue) => (issue.code === 'unrecognized_keys' ? `unknown key(s) ${issue.keys.join(', ')}; a threshold is { below: n } or { above: n }` : undefined) },
  )
  .refine((threshold) => (threshold.below === undefined) !== (threshold.above === undefined), {
    message: 'a threshold is { below: n } (breach when the aggregate falls below n) or { above: n }: exactly one',
  });
export type MonitorThreshold = z.output<typeof monitorThresholdSchema>;

export const monitorSchema = z.strictObject({
  /** Unique; the key of its alert records. */
  name: z.string().min(1, 'a monitor needs a name'),
  /** The scorer id of a configured binding. */
  scorer: z.string().min(1),
  /** Only this agent's records (entity.id). */
  agent: z.string().min(1).optional(),
  /** Only this tenant's records (metadata.tenantId). */
  tenant: z.string().min(1).optional(),
  aggregation: z.enum(MONITOR_AGGREGATIONS, { error: `aggregation must be one of ${MONITOR_AGGREGATIONS.map((name) => `'${name}'`).join(', ')}` }),
  window: durationSchema('window'),
  threshold: monitorThresholdSchema,
  /** How long the threshold must be crossed before a breach is announced (default 0: at the first evaluation). */
  for: durationSchema('for', { allowZero: true }).default(0),
  /** The least time between two breach notices of this monitor (default 0). */
  cooldown: durationSchema('cooldown', { allowZero: true }).default(0),
  noData: z.enum(NO_DATA_BEHAVIOURS, { error: `noData must be one of ${NO_DATA_BEHAVIOURS.map((name) => `'${name}'`).join(', ')}` }).default('keep'),
  /** Fewer samples in the window than this is no data (default 1; `count` never lacks data). */
  minSamples: z.number().int().positive().default(1),
});

/** A monitor as a config writes it. */
export type MonitorInput = z.input<typeof monitorSchema>;
/** A validated monitor: durations in ms, defaults filled in. */
export type Monitor = z.output<typeof monitorSchema>;
