// The ACL table per role (kafka/acl-roles.ts), derived from the topology (src/engine/topology/): what each
// role gets, its kafkajs form, and docs/security.md listing exactly the commands the module
// renders for the default names.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { creationGrants, renderKafkaAcls, roleGrants, toKafkajsAcls } from '../../../kafka/acl-roles.ts';
import type { AclGrant } from '../../../kafka/acl-roles.ts';
import { transactionalIdFor } from '../../../kafka/transactional-kafka.ts';
import { secureRoleGrants, secureTopology } from '../../../cli/secure-broker-setup.ts';
import { DEFAULTS } from '../../../src/engine/config/defaults.ts';
import { topologyOf } from '../../../src/engine/topology/topology.ts';
import type { TopologySettings } from '../../../src/engine/topology/topology.ts';

/** The default names, with the demo's decisions topic. */
const names = {
  runs: 'agent-runs',
  results: 'agent-scores',
  deadLetter: 'agent-runs-dlq',
  decisions: 'agent-score-decisions',
  retry: 'agent-runs-retry',
  alerts: 'agent-score-alerts',
  rescore: 'agent-runs-rescore',
  replays: 'agent-runs-replays',
  feedback: 'agent-feedback',
  agreements: 'agent-score-agreements',
};
/** The service's default deployment: retries on (10 s, 1 min, 10 min, 1 h), no thread scorer, no re-scores. */
const settings: TopologySettings = { topics: names, retries: { enabled: true, delaysMs: DEFAULTS.retryDelaysMs }, threads: false, rescore: false };
const topology = (more: Partial<TopologySettings> = {}) => topologyOf({ ...settings, ...more });
const summary = (grants: readonly AclGrant[]) => grants.map((grant) => `${grant.operations.join('+')} ${grant.resource} ${grant.name}${grant.pattern === 'prefixed' ? '*' : ''}`);
/** What `grants` adds to `base`. */
const added = (grants: readonly AclGrant[], base: readonly AclGrant[]) => grants.filter((grant) => !summary(base).includes(summary([grant])[0]!));

describe('ACLs per role, from the topology', () => {
  it('the service reads runs and its group and writes its outputs; exactly-once adds its transactional-id prefix', () => {
    const atLeastOnce = roleGrants(topology(), 'service', { groupId: 'scorestream', delivery: 'at-least-once' });
    expect(summary(atLeastOnce)).toEqual([
      'Read topic agent-runs',
      'Write topic agent-scores',
      'Write topic agent-runs-dlq',
      'Write topic agent-score-decisions',
      'Read+Write topic agent-runs-retry-10s',
      'Read+Write topic agent-runs-retry-1m',
      'Read+Write topic agent-runs-retry-10m',
      'Read+Write topic agent-runs-retry-1h',
      'Read group scorestream',
    ]);
    expect(summary(roleGrants(topology({ retries: { enabled: false, delaysMs: [] } }), 'service', { groupId: 'scorestream' })).filter((grant) => grant.includes('retry'))).toEqual([]);
    const exactlyOnce = roleGrants(topology(), 'service', { groupId: 'scorestream', delivery: 'exactly-once' });
    expect(summary(added(exactlyOnce, atLeastOnce))).toEqual(['Write+Describe transactional-id scorestream-*']);
    // The prefix covers the ids the transactional sink really uses.
    expect(transactionalIdFor('scorestream', 'agent-runs', 3).startsWith(exactlyOnce.at(-1)!.name)).toBe(true);
  });

  it('thread scorers add the thread topics (their state is restored group-less: no group); `kafka start --secure` grants them to its service user', () => {
    const threads = added(roleGrants(topology({ threads: true }), 'service', { groupId: 'scorestream' }), roleGrants(topology(), 'service', { groupId: 'scorestream' }));
    expect(summary(threads)).toEqual(['Read+Write topic agent-runs-by-thread', 'Read+Write topic agent-runs-thread-state', 'Write topic agent-runs-thread-scores']);
    const service = secureRoleGrants().find(({ principal }) => principal === 'User:scorestream')!;
    expect(summary(service.grants)).toEqual(expect.arrayContaining(summary(threads)));
    // A replay reads no thread.
    const replay = secureRoleGrants().find(({ principal }) => principal === 'User:replay')!;
    expect(summary(replay.grants).filter((grant) => grant.includes('thread'))).toEqual([]);
  });

  it('re-scores on feedback add READ on the rescore topic (the run is read back group-less); a replay gets neither', () => {
    const rescore = topology({ rescore: true });
    expect(summary(added(roleGrants(rescore, 'service', { groupId: 'scorestream' }), roleGrants(topology(), 'service', { groupId: 'scorestream' })))).toEqual(['Read topic agent-runs-rescore']);
    expect(summary(roleGrants(rescore, 'replay', { groupId: 'scorestream' })).filter((grant) => grant.includes('rescore') || grant.includes('run-fetch'))).toEqual([]);
  });

  it('the feedback join reads feedback and results, reads and writes agreements, writes its dead letters and re-score requests', () => {
    expect(summary(roleGrants(topology(), 'agreement'))).toEqual([
      'Read topic agent-scores',
      'Write topic agent-runs-rescore',
      'Read topic agent-feedback',
      'Write topic agent-feedback-dlq',
      'Read+Write topic agent-score-agreements',
    ]);
    expect(summary(roleGrants(topology({ rescoreRequests: false }), 'agreement'))).not.toContain('Write topic agent-runs-rescore');
  });

  it('the dashboard reads every view the topology gives it: results, decisions, the latest-score view, agreements and the alerts', () => {
    expect(summary(roleGrants(topology({ threads: true }), 'dashboard'))).toEqual([
      'Read topic agent-scores',
      'Read topic agent-score-decisions',
      'Read topic agent-runs-thread-scores',
      'Read topic agent-score-agreements',
      'Read topic agent-score-alerts',
    ]);
    expect(summary(roleGrants(topologyOf({ ...settings, topics: { ...names, decisions: undefined } }), 'dashboard'))).not.toContain('Read topic agent-score-decisions');
  });

  it('no decisions topic, no decisions ACL', () => {
    expect(summary(roleGrants(topologyOf({ ...settings, topics: { ...names, decisions: undefined } }), 'service', { groupId: 'g' }))).not.toContain('Write topic agent-score-decisions');
  });

  it('producer, tail, monitor, replay and creation', () => {
    expect(summary(roleGrants(topology(), 'producer'))).toEqual(['Write topic agent-runs']);
    // Every role but the service and a replay reads group-less: topics only.
    expect(summary(roleGrants(topology(), 'tail'))).toEqual(['Read topic agent-scores']);
    expect(summary(roleGrants(topology(), 'monitor'))).toEqual(['Read topic agent-scores', 'Read+Write topic agent-score-alerts']);
    expect(summary(roleGrants(topology(), 'replay', { groupId: 'scorestream', delivery: 'exactly-once' }))).toEqual([
      'Read topic agent-runs',
      'Write topic agent-scores',
      'Write topic agent-runs-dlq',
      'Write topic agent-score-decisions',
      'Read+Write topic agent-runs-replays',
      'Read group scorestream.*',
      'Write+Describe transactional-id scorestream.*',
    ]);
    expect(summary(creationGrants(topology(), 'service'))).toEqual([
      'Create topic agent-scores',
      'Create topic agent-runs-dlq',
      'Create topic agent-score-decisions',
      'Create topic agent-runs-retry-10s',
      'Create topic agent-runs-retry-1m',
      'Create topic agent-runs-retry-10m',
      'Create topic agent-runs-retry-1h',
    ]);
  });

  it('renders kafka-acls.sh commands and kafkajs createAcls entries', () => {
    const grants = roleGrants(topology(), 'service', { groupId: 'scorestream', delivery: 'exactly-once' });
    expect(renderKafkaAcls('User:svc', grants).at(-1)).toBe(
      "kafka-acls.sh $ADMIN --add --allow-principal 'User:svc' --operation Write --operation Describe --transactional-id 'scorestream-' --resource-pattern-type prefixed",
    );
    const entries = toKafkajsAcls('User:svc', grants);
    expect(entries).toHaveLength(15);
    expect(entries.at(-1)).toEqual({ resourceType: 5, resourceName: 'scorestream-', resourcePatternType: 4, principal: 'User:svc', host: '*', operation: 8, permissionType: 3 });
    expect(entries[0]).toEqual({ resourceType: 2, resourceName: 'agent-runs', resourcePatternType: 3, principal: 'User:svc', host: '*', operation: 3, permissionType: 3 });
  });

  it('`kafka start --secure` creates every topic of the table and grants every role', () => {
    const secured = secureTopology();
    expect(secured.entries.map((entry) => entry.id)).toEqual(expect.arrayContaining(['runs', 'results', 'dead-letters', 'decisions', 'retry-tier', 'rescore', 'by-thread', 'thread-state', 'thread-scores', 'replays', 'feedback', 'feedback-dead-letters', 'agreements', 'alerts']));
    expect(secureRoleGrants().map(({ principal }) => principal)).toEqual(['User:scorestream', 'User:producer', 'User:scorestream-client', 'User:tail', 'User:dashboard', 'User:agreement', 'User:monitor', 'User:replay']);
  });

  it('docs/security.md lists exactly the commands of each role', () => {
    const docs = readFileSync(new URL('../../../docs/security.md', import.meta.url), 'utf8');
    const documented = docs.split('\n').filter((line) => line.startsWith('kafka-acls.sh '));
    const service = roleGrants(topology(), 'service', { groupId: 'scorestream', delivery: 'at-least-once' });
    const everything = topology({ threads: true, rescore: true });
    const expected = [
      ...renderKafkaAcls('User:scorestream', service),
      ...renderKafkaAcls('User:scorestream', added(roleGrants(topology({ rescore: true }), 'service', { groupId: 'scorestream' }), service)),
      ...renderKafkaAcls('User:scorestream', added(roleGrants(topology(), 'service', { groupId: 'scorestream', delivery: 'exactly-once' }), service)),
      ...renderKafkaAcls('User:scorestream', added(roleGrants(topology({ threads: true }), 'service', { groupId: 'scorestream' }), service)),
      ...renderKafkaAcls('User:agent-producer', roleGrants(everything, 'producer')),
      ...renderKafkaAcls('User:scorestream-tail', roleGrants(everything, 'tail')),
      ...renderKafkaAcls('User:scorestream-dashboard', roleGrants(everything, 'dashboard')),
      ...renderKafkaAcls('User:scorestream-agreement', roleGrants(everything, 'agreement')),
      ...renderKafkaAcls('User:scorestream-monitor', roleGrants(everything, 'monitor')),
      ...renderKafkaAcls('User:scorestream-replay', roleGrants(everything, 'replay', { groupId: 'scorestream', delivery: 'at-least-once' })),
      ...renderKafkaAcls('User:scorestream', creationGrants(topology(), 'service')),
    ].filter((line) => line.startsWith('kafka-acls.sh '));
    expect(documented).toEqual(expected);
  });
});
