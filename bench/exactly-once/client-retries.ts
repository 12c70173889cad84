// Counts the client's own retries during a run, by operation, for every producer made meanwhile —
// e.g. AddPartitionsToTxn answered CONCURRENT_TRANSACTIONS while the previous transaction's markers
// are still being written, which the client waits out at the shipped retry delay (20 ms first). They
// say where a transaction's time goes. Counted through the library's channel of created clients,
// so both layouts are counted alike without reaching into either.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { instancesChannel } from '@platformatic/kafka';

type Created = { type: string; instance: { on(event: string, listener: (operationId: string) => void): unknown } };

export type RetryCount = {
  /** Stops counting; returns the retries by operation. */
  stop(): Map<string, number>;
};

export function countClientRetries(): RetryCount {
  const retries = new Map<string, number>();
  const onCreated = (message: unknown) => {
    const { type, instance } = message as Created;
    if (type !== 'producer') return;
    instance.on('client:performWithRetry:retry', (operationId) => retries.set(operationId, (retries.get(operationId) ?? 0) + 1));
  };
  subscribe(instancesChannel.name, onCreated);
  return {
    stop() {
      unsubscribe(instancesChannel.name, onCreated);
      return retries;
    },
  };
}
