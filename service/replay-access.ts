// What a replay (and its dry run) needs from a secured cluster, for the pre-flight check and the
// messages naming a missing ACL: the service's topics, and its consumer groups and (exactly-once)
// transactional ids under the prefix `<group>.` — the replay role of docs/security.md
// (kafka/acl-roles.ts, replayAcls). Checked before the range is resolved, so a refusal ends the
// command with exit 2 and the ACL to grant rather than kafkajs' bare "Failed to find group coordinator".
import type { ResolvedConfig } from '../src/config/resolve-config.ts';
import type { AccessContext } from '../kafka/kafka-access-error.ts';
import type { KafkaNeeds } from '../kafka/kafka-preflight.ts';
import { serviceAccess } from '../kafka/service-access.ts';

export function replayAccess(config: ResolvedConfig, replayGroupId: string): { context: AccessContext; needs: KafkaNeeds } {
  const prefix = `${config.groupId}.`;
  const exactlyOnce = config.delivery === 'exactly-once';
  // A replay reads no retry tier (service/replay.ts), so it needs none.
  const service = serviceAccess({ ...config, groupId: replayGroupId, retries: { ...config.retries, enabled: false } }, {});
  // Its range is fixed on the replays topic (service/replay-state.ts).
  const topics = [...(service.context.topics ?? []), { topic: config.topics.replays, operations: 'READ and WRITE (and CREATE while it does not exist)' }];
  return {
    context: { ...service.context, topics, group: prefix, groupIsPrefix: true, ...(exactlyOnce ? { transactionalIdPrefix: prefix } : {}) },
    needs: { ...service.needs, group: replayGroupId },
  };
}
