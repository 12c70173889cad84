// What a replay's pre-flight checks and names (service/replay-access.ts): its own replay group,
// named in messages as the `<group>.` prefix of the replay role (kafka/acl-roles.ts, roleGrants).
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/engine/config/resolve-config.ts';
import { createScorer } from '../../../src/kit/scorer/create-scorer.ts';
import { roleGrants } from '../../../kafka/acl-roles.ts';
import { topologyOfConfig } from '../../../src/engine/topology/topology.ts';
import { replayAccess } from '../../../service/replay-access.ts';

const scorer = createScorer({ id: 'a', description: 'd' }).generateScore(() => 1);
const config = (delivery: 'at-least-once' | 'exactly-once') =>
  resolveConfig({ kafka: { brokers: ['localhost:9092'], sasl: { mechanism: 'scram-sha-512', username: 'replayer', password: 'p' } }, groupId: 'live', delivery, scorers: [{ scorer }] });

describe('a replay checks the access of the replay role', () => {
  it('probes its own replay group, and names the <group>. prefix and the topics the replay role is granted', () => {
    const { context, needs } = replayAccess(config('at-least-once'), 'live.replay-1234');
    expect(needs.group).toBe('live.replay-1234');
    expect(needs.existingTopics).toEqual(['agent-runs']);
    expect(needs.transactionalIdPrefix).toBeUndefined();
    expect(context).toMatchObject({ group: 'live.', groupIsPrefix: true, aclPrincipal: 'User:replayer' });
    expect(context.transactionalIdPrefix).toBeUndefined();
    const granted = roleGrants(topologyOfConfig(config('at-least-once')), 'replay', { groupId: 'live', delivery: 'at-least-once' });
    // What the pre-flight names is what the replay role is granted: its topics, no retry tier.
    expect(context.topics?.map((need) => need.topic)).toEqual(granted.filter((grant) => grant.resource === 'topic').map((grant) => grant.name));
    expect(context.topics?.map((need) => need.topic)).toEqual(['agent-runs', 'agent-scores', 'agent-runs-dlq', 'agent-runs-replays']);
    expect(granted.filter((grant) => grant.resource === 'group').map((grant) => grant.name)).toEqual([context.group]);
  });

  it('exactly-once: checks a transactional id of the replay group, and names the <group>. prefix', () => {
    const { context, needs } = replayAccess(config('exactly-once'), 'live.replay-1234');
    expect(needs.transactionalIdPrefix?.startsWith('live.replay-1234')).toBe(true);
    expect(context.transactionalIdPrefix).toBe('live.');
  });
});
