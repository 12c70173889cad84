// The transactional ids of exactly-once delivery: one per input partition,
// `${groupId}-${topic}-${partition}`, so that whoever claims the partition next initialises that
// id, which bumps its producer epoch, fences the previous owner's producer and completes or
// aborts its open transaction. kafkajs 2.2.4 has no consumer-group-metadata fencing (KIP-447), so
// the id itself must follow the partition; the price is one producer (its own connections and
// producer id) per owned partition. Both clients use these ids (kafka-transport.ts), so an
// instance on one client fences an instance on the other.

/** What every transactional id of a group starts with: the prefix its ACL is granted on (docs/security.md). */
export const transactionalIdPrefix = (groupId: string): string => `${groupId}-`;

/** The transactional id of an input partition: stable across restarts, one per (group, partition). */
export const transactionalIdFor = (groupId: string, topic: string, partition: number): string => `${transactionalIdPrefix(groupId)}${topic}-${partition}`;
