// A @platformatic/kafka Producer that speaks only the client side of the transaction protocol.
// 2.12.1 sends every API at the highest version the broker lists, and for AddPartitionsToTxn that
// is v4 or v5 on Kafka 3.6 and newer: the batched versions one broker sends another to verify a
// transaction (KIP-890), which the broker authorises as CLUSTER_ACTION on the cluster. Without an
// authorizer nobody notices; on a cluster that enforces ACLs every transaction's first send is
// refused with CLUSTER_AUTHORIZATION_FAILED, so exactly-once never commits (docs/delivery.md,
// the second Kafka client). Versions 0–3 are the clients' and need only WRITE on the
// transactional id and the topic, as kafkajs and the Java client send them; the library's v3
// takes the same arguments as its v5, so capping the version is all it takes.
import { Producer, kListApis } from '@platformatic/kafka';
import type { CallbackWithPromise, apiVersionsV3 } from '@platformatic/kafka';

/** The highest AddPartitionsToTxn version a client may send (4 and up are for brokers). */
export const CLIENT_ADD_PARTITIONS_TO_TXN_MAX_VERSION = 3;

type ApiVersion = { name: string; minVersion: number; maxVersion: number };

/** The broker's API versions, with AddPartitionsToTxn capped at the clients' highest. */
export function clientApiVersions<Api extends ApiVersion>(apis: readonly Api[]): Api[] {
  return apis.map((api) => (api.name === 'AddPartitionsToTxn' && api.maxVersion > CLIENT_ADD_PARTITIONS_TO_TXN_MAX_VERSION ? { ...api, maxVersion: Math.max(api.minVersion, CLIENT_ADD_PARTITIONS_TO_TXN_MAX_VERSION) } : api));
}

export class ClientApiProducer extends Producer<Buffer, Buffer, Buffer, Buffer> {
  // Every API lookup of the client goes through this list (it is fetched once and kept), so the
  // cap holds for each request the producer sends.
  override [kListApis](callback: CallbackWithPromise<apiVersionsV3.ApiVersionsResponseApi[]>): void {
    super[kListApis]((error, apis) => callback(error, apis === undefined ? apis : clientApiVersions(apis)));
  }
}
