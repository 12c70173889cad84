// What a replay's pre-flight checks and names (service/replay-access.ts): its own replay group,
// named in messages as the `<group>.` prefix of the replay role (kafka/acl-roles.ts, replayAcls).
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/resolve-config.ts';
import { createScorer } from '../../../src/scorer/create-scorer.ts';
import { replayAcls } from '../../../kafka/acl-roles.ts';
import { replayAccess } from '../../../service/replay-access.ts';

const scorer = createScorer({ id: 'a', description: 'd' }).generateScore(() => 1);
const config = (delivery: 'at-least-once' | 'exactly-once') =>
  resolveConfig({ kafka: { brokers: ['localhost:9092'], sasl: { mechanism: 'scram-sha-512', username: 'replayer', password: 'p' } }, groupId: 'live', delivery, scorers: [{ scorer }] });

describe('a replay checks the access of the replay role', () => {
  it('probes its own replay group, and names the <group>. prefix replayAcls grants', () => {
    const { context, needs } = replayAccess(config('at-least-once'), 'live.replay-1234');
    expect(needs.group).toBe('live.replay-1234');
    expect(needs.existingTopics).toEqual(['agent-runs']);
    expect(needs.transactionalIdPrefix).toBeUndefined();
    expect(context).toMatchObject({ group: 'live.', groupIsPrefix: true, aclPrincipal: 'User:replayer' });
    expect(context.transactionalIdPrefix).toBeUndefined();
    const granted = replayAcls({ topics: { runs: 'agent-runs', results: 'agent-scores', deadLetter: 'agent-runs-dlq' }, groupId: 'live', delivery: 'at-least-once' });
    expect(granted.filter((grant) => grant.resource === 'group').map((grant) => grant.name)).toEqual([context.group, context.group]);
  });

  it('exactly-once: checks a transactional id of the replay group, and names the <group>. prefix', () => {
    const { context, needs } = replayAccess(config('exactly-once'), 'live.replay-1234');
    expect(needs.transactionalIdPrefix?.startsWith('live.replay-1234')).toBe(true);
    expect(context.transactionalIdPrefix).toBe('live.');
  });
});
