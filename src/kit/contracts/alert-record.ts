// AlertRecord v1: what an in-stream monitor (src/engine/monitors/; docs/alerts.md) announces on the alerts
// topic, keyed by the monitor's name: `breach` when its aggregate crossed the threshold for its
// `for` period (or its window had no data and noData is 'breach'), `recovered` when that ended. The
// id is deterministic from (monitor, kind, breach start), so a notice repeated after a restart is
// recognisably the same.
import { z } from 'zod';
import { idSchema, isoTimestampSchema } from './common.ts';

/** How a monitor aggregates its window (the config's `monitors[].aggregation`, src/engine/monitors/monitor-schema.ts). */
export const MONITOR_AGGREGATIONS = ['mean', 'p50', 'p95', 'passRate', 'count'] as const;
export type MonitorAggregation = (typeof MONITOR_AGGREGATIONS)[number];

/** No data (fewer than minSamples in the window): `ok` recovers, `breach` breaches, `keep` changes nothing. */
export const NO_DATA_BEHAVIOURS = ['ok', 'breach', 'keep'] as const;
export type NoDataBehaviour = (typeof NO_DATA_BEHAVIOURS)[number];

export const ALERT_RECORD_SCHEMA_VERSION = 1;
export const ALERT_KINDS = ['breach', 'recovered'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** The monitor as configured, so a reader of the topic needs no config to explain a notice. */
export const alertMonitorSchema = z
  .object({
    name: idSchema,
    scorer: idSchema,
    agent: z.string().optional(),
    tenant: z.string().optional(),
    aggregation: z.enum(MONITOR_AGGREGATIONS),
    windowMs: z.number().int().positive(),
    threshold: z.union([z.object({ below: z.number() }), z.object({ above: z.number() })]),
    forMs: z.number().int().nonnegative(),
    cooldownMs: z.number().int().nonnegative(),
    noData: z.enum(NO_DATA_BEHAVIOURS),
    minSamples: z.number().int().positive(),
  })
  .meta({ id: 'AlertMonitor' });

export const alertRecordSchema = z.object({
  schemaVersion: z.literal(ALERT_RECORD_SCHEMA_VERSION),
  alertId: idSchema,
  kind: z.enum(ALERT_KINDS),
  monitor: alertMonitorSchema,
  /** The aggregate over the window at `at`; null when the window had no data. */
  value: z.number().nullable(),
  /** Samples in the window (scored records, or records with a verdict for passRate). */
  samples: z.number().int().nonnegative(),
  /** The window had fewer than minSamples samples. */
  noData: z.boolean(),
  /** breach: when the threshold was first crossed (the `for` period began); recovered: when the breach was announced. */
  since: isoTimestampSchema,
  /** When the monitor decided this (its evaluation time). */
  at: isoTimestampSchema,
  /** The oldest and newest sample in the window (scoredAt), when there were samples. */
  window: z.object({ from: isoTimestampSchema, to: isoTimestampSchema }).optional(),
});
export type AlertRecord = z.infer<typeof alertRecordSchema>;
