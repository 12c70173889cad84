// A batch open at the provider, as the batch tier's state topic holds it (`{topics.retry}-batch-state`,
// compacted, keyed by the provider's batch id; a tombstone once its answers were used): which
// requests it carries, so that whoever claims the partition after a crash or a rebalance polls
// it instead of submitting them again.
import { z } from 'zod';

export const openBatchSchema = z.object({
  batchId: z.string().min(1),
  /** The provider's name ('openai', 'anthropic'): a batch is polled only by the API it was submitted to. */
  api: z.string().min(1),
  submittedAt: z.iso.datetime({ offset: true }),
  customIds: z.array(z.string()).min(1),
});
export type OpenBatch = z.infer<typeof openBatchSchema>;

/** The state record's value, or a problem saying why it cannot be read (it is then ignored: its requests are submitted again). */
export function readOpenBatch(value: string): { ok: true; batch: OpenBatch } | { ok: false; problem: string } {
  try {
    const parsed = openBatchSchema.safeParse(JSON.parse(value));
    return parsed.success ? { ok: true, batch: parsed.data } : { ok: false, problem: parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ') };
  } catch (error) {
    return { ok: false, problem: `not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
}
