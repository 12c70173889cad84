// The record a named broker leaves in its state directory (broker.json): how it runs (JVM pid or
// container), where it listens, and the cluster id of its data, so later commands can find it,
// reuse it, or stop it. Written atomically; an unreadable record counts as none.
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';

const brokerStateSchema = z.object({
  mode: z.enum(['docker', 'jvm']),
  kafkaVersion: z.string(),
  clusterId: z.string(),
  ports: z.object({ broker: z.number().int(), controller: z.number().int(), mtls: z.number().int().optional() }),
  brokers: z.array(z.string()),
  /** A secured broker (`kafka start --secure`): `brokers` is its SASL_SSL listener, `mtlsBrokers` its mutual-TLS one. */
  secure: z.boolean().optional(),
  mtlsBrokers: z.array(z.string()).optional(),
  pid: z.number().int().optional(),
  container: z.string().optional(),
  startedAt: z.string().optional(),
});

export type BrokerState = z.infer<typeof brokerStateSchema>;

export function brokerStateFile(directory: string): string {
  return join(directory, 'broker.json');
}

export async function readBrokerState(directory: string): Promise<BrokerState | undefined> {
  try {
    const parsed = brokerStateSchema.safeParse(JSON.parse(await readFile(brokerStateFile(directory), 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export async function writeBrokerState(directory: string, state: BrokerState): Promise<void> {
  const file = brokerStateFile(directory);
  const staging = `${file}.${process.pid}.tmp`;
  await writeFile(staging, `${JSON.stringify(state, null, 2)}\n`);
  await rename(staging, file);
}
