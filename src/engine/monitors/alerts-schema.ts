// Where the in-stream monitors' notices go besides the alerts topic (`alerts` in the config;
// docs/alerts.md): how often the monitors are evaluated, and an optional webhook that receives
// each notice as plain JSON or as a Slack message, retried with backoff on its own queue so a
// slow or failing webhook never holds anything else up.
import { z } from 'zod';
import { durationSchema } from '../../kit/utils/duration.ts';

export const WEBHOOK_FORMATS = ['json', 'slack'] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

export const DEFAULT_EVALUATE_EVERY_MS = 10_000;

export const webhookSchema = z.strictObject({
  url: z.url({ protocol: /^https?$/, error: 'url must be an http or https URL, e.g. https://hooks.slack.com/services/...' }),
  /** `json`: the alert record as it is on the topic; `slack`: a Slack incoming-webhook message. */
  format: z.enum(WEBHOOK_FORMATS, { error: "format must be 'json' or 'slack'" }).default('json'),
  /** Sent with every request, e.g. an Authorization header (never logged). */
  headers: z.record(z.string(), z.string()).default({}),
  /** Bound on one request (default 5 s). */
  timeoutMs: z.number().int().positive().default(5_000),
  /** Attempts per notice, the first included (default 5); between them 1 s, 2 s, 4 s, … or the server's Retry-After. */
  maxAttempts: z.number().int().positive().max(20).default(5),
});
export type WebhookConfig = z.output<typeof webhookSchema>;

export const alertsSchema = z
  .strictObject({
    /** How often the monitors are evaluated on the wall clock (default '10s'). */
    evaluateEvery: durationSchema('evaluateEvery').default(DEFAULT_EVALUATE_EVERY_MS),
    webhook: webhookSchema.optional(),
  })
  .prefault({});
