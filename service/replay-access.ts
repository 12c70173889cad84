// What a replay (and its dry run) needs from a secured cluster, for the pre-flight check and the
// messages naming a missing ACL: the replay role's topics of the topology (src/engine/topology/; runs,
// the outputs and the replays topic where it fixes its range), and its consumer groups and
// (exactly-once) transactional ids under the prefix `<group>.` — the replay role of
// docs/security.md (kafka/acl-roles.ts). Checked before the range is resolved, so a refusal ends
// the command with exit 2 and the ACL to grant rather than a bare "Failed to find group coordinator".
import type { ResolvedConfig } from '../src/engine/config/resolve-config.ts';
import type { AccessContext } from '../kafka/kafka-access-error.ts';
import type { KafkaNeeds } from '../kafka/kafka-preflight.ts';
import { serviceAccess } from '../kafka/service-access.ts';

export function replayAccess(config: ResolvedConfig, replayGroupId: string): { context: AccessContext; needs: KafkaNeeds } {
  const prefix = `${config.groupId}.`;
  const exactlyOnce = config.delivery === 'exactly-once';
  const replay = serviceAccess({ ...config, groupId: replayGroupId }, { role: 'replay' });
  return {
    context: { ...replay.context, group: prefix, groupIsPrefix: true, ...(exactlyOnce ? { transactionalIdPrefix: prefix } : {}) },
    needs: { ...replay.needs, group: replayGroupId },
  };
}
