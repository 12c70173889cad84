// Decides that a broker is ready by asking it through the admin API (describeCluster) rather
// than by reading its log: ready means a client can connect and get cluster metadata back.
import { setTimeout as sleep } from 'node:timers/promises';
import type { KafkaConfig } from 'kafkajs';
import { quietKafka } from './quiet.ts';

/** How a client reaches a secured broker (TLS and SASL settings); nothing for a plain one. */
export type ClientSecurity = Pick<KafkaConfig, 'ssl' | 'sasl'>;

async function describeOnce(brokers: string[], timeoutMs: number, security: ClientSecurity = {}): Promise<{ ok: true } | { ok: false; reason: string }> {
  const kafka = quietKafka({
    clientId: 'scorestream-broker-probe',
    brokers,
    ...security,
    connectionTimeout: Math.min(timeoutMs, 3_000),
    requestTimeout: timeoutMs,
    retry: { retries: 0 },
  });
  const admin = kafka.admin();
  try {
    await admin.connect();
    const cluster = await admin.describeCluster();
    return cluster.brokers.length > 0 && cluster.controller !== null ? { ok: true } : { ok: false, reason: 'no controller yet' };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

/** True when the broker answers describeCluster within `timeoutMs`. */
export async function brokerAnswers(brokers: string[], timeoutMs = 5_000, security: ClientSecurity = {}): Promise<boolean> {
  return (await describeOnce(brokers, timeoutMs, security)).ok;
}

export type WaitForBrokerOptions = {
  timeoutMs: number;
  /** Checked between attempts: when it turns false the broker died and waiting stops early. */
  isAlive?: () => boolean | Promise<boolean>;
  intervalMs?: number;
  /** TLS and SASL settings of a secured broker's admin. */
  security?: ClientSecurity;
};

export type WaitForBrokerResult = { ready: true; elapsedMs: number } | { ready: false; reason: string; elapsedMs: number };

/** Polls describeCluster until it answers, the deadline passes, or the broker process dies. */
export async function waitForBroker(brokers: string[], options: WaitForBrokerOptions): Promise<WaitForBrokerResult> {
  const started = Date.now();
  const deadline = started + options.timeoutMs;
  let lastReason = 'not attempted';
  while (Date.now() < deadline) {
    if (options.isAlive !== undefined && !(await options.isAlive())) {
      return { ready: false, reason: 'the broker process exited', elapsedMs: Date.now() - started };
    }
    const attempt = await describeOnce(brokers, Math.max(1_000, Math.min(5_000, deadline - Date.now())), options.security);
    if (attempt.ok) return { ready: true, elapsedMs: Date.now() - started };
    lastReason = attempt.reason;
    await sleep(options.intervalMs ?? 150);
  }
  return { ready: false, reason: `no answer within ${options.timeoutMs} ms (last: ${lastReason})`, elapsedMs: Date.now() - started };
}
