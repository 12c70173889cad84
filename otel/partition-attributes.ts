// A claimed partition's key in the service's counters (`topic[partition]`) as metric attributes,
// the OTel messaging convention's: every per-partition instrument labels by it.
/** `topic[3]` → { topic, partition: 3 }; anything else is reported as the topic. */
export function partitionAttributes(key: string): Record<string, string | number> {
  const match = /^(.*)\[(\d+)\]$/.exec(key);
  return match === null ? { 'messaging.destination.name': key } : { 'messaging.destination.name': match[1]!, 'messaging.destination.partition.id': match[2]! };
}
