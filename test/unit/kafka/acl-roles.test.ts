// The ACL table per role (kafka/acl-roles.ts): what each role gets, its kafkajs form, and
// docs/security.md listing exactly the commands the module renders for the default names.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { agreementAcls, creationAcls, dashboardAcls, producerAcls, renderKafkaAcls, replayAcls, runFetchGroupPrefix, serviceAcls, tailAcls, toKafkajsAcls } from '../../../kafka/acl-roles.ts';
import { transactionalIdFor } from '../../../kafka/transactional-kafka.ts';
import { secureRoleGrants } from '../../../cli/secure-broker-setup.ts';
import { threadTopicsFor } from '../../../src/config/thread-topics.ts';

/** The default names: the retry tiers of the default delays (10 s, 1 min, 10 min, 1 h). */
const topics = { runs: 'agent-runs', results: 'agent-scores', deadLetter: 'agent-runs-dlq', decisions: 'agent-score-decisions', retryTiers: ['agent-runs-retry-10s', 'agent-runs-retry-1m', 'agent-runs-retry-10m', 'agent-runs-retry-1h'], replays: 'agent-runs-replays' };
/** The grants a thread binding adds to the service's. */
const threadGrants = (grants: ReturnType<typeof serviceAcls>) => grants.filter((grant) => grant.why.startsWith('thread scorers'));
const summary = (grants: ReturnType<typeof serviceAcls>) => grants.map((grant) => `${grant.operations.join('+')} ${grant.resource} ${grant.name}${grant.pattern === 'prefixed' ? '*' : ''}`);

describe('ACLs per role', () => {
  it('the service reads runs and its group and writes its outputs; exactly-once adds its transactional-id prefix', () => {
    const atLeastOnce = serviceAcls({ topics, groupId: 'scorestream', delivery: 'at-least-once' });
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
    expect(summary(serviceAcls({ topics: { ...topics, retryTiers: undefined }, groupId: 'scorestream', delivery: 'at-least-once' })).filter((grant) => grant.includes('retry'))).toEqual([]);
    const exactlyOnce = serviceAcls({ topics, groupId: 'scorestream', delivery: 'exactly-once' });
    expect(summary(exactlyOnce).slice(atLeastOnce.length)).toEqual(['Write+Describe transactional-id scorestream-*']);
    // The prefix covers the ids the transactional sink really uses.
    expect(transactionalIdFor('scorestream', 'agent-runs', 3).startsWith(exactlyOnce.at(-1)!.name)).toBe(true);
  });

  it('thread scorers add the thread topics and the restore groups; `kafka start --secure` grants them to its service user', () => {
    const withThreads = serviceAcls({ topics: { ...topics, threads: threadTopicsFor(topics.runs) }, groupId: 'scorestream', delivery: 'at-least-once' });
    expect(summary(threadGrants(withThreads))).toEqual(['Read+Write topic agent-runs-by-thread', 'Read+Write topic agent-runs-thread-state', 'Write topic agent-runs-thread-scores', 'Read+Delete group scorestream.thread-restore-*']);
    const service = secureRoleGrants().find(({ principal }) => principal === 'User:scorestream')!;
    expect(summary(service.grants)).toEqual(expect.arrayContaining(summary(threadGrants(withThreads))));
    // A replay reads no thread.
    const replay = secureRoleGrants().find(({ principal }) => principal === 'User:replay')!;
    expect(threadGrants(replay.grants)).toEqual([]);
  });

  it('re-scores on feedback add READ on the rescore topic and the throwaway run-fetch groups; a replay gets neither', () => {
    const withRescore = { ...topics, rescore: 'agent-runs-rescore' };
    const grants = summary(serviceAcls({ topics: withRescore, groupId: 'scorestream', delivery: 'at-least-once' }));
    expect(grants.slice(-2)).toEqual(['Read topic agent-runs-rescore', 'Read+Delete group scorestream.run-fetch-*']);
    expect(runFetchGroupPrefix('scorestream')).toBe('scorestream.run-fetch-');
    expect(summary(replayAcls({ topics: withRescore, groupId: 'scorestream', delivery: 'at-least-once' })).filter((grant) => grant.includes('rescore') || grant.includes('run-fetch'))).toEqual([]);
  });

  it('the feedback join reads feedback and results, reads and writes agreements, writes its dead letters and re-score requests; the dashboard reads agreements', () => {
    expect(summary(agreementAcls({ feedbackTopic: 'agent-feedback', resultsTopic: 'agent-scores', agreementsTopic: 'agent-score-agreements', deadLetterTopic: 'agent-feedback-dlq', rescoreTopic: 'agent-runs-rescore' }))).toEqual([
      'Read topic agent-feedback',
      'Read topic agent-scores',
      'Read+Write topic agent-score-agreements',
      'Write topic agent-feedback-dlq',
      'Write topic agent-runs-rescore',
      'Read+Delete group scorestream-agreement*',
    ]);
    expect(summary(agreementAcls({ feedbackTopic: 'f', resultsTopic: 'r', agreementsTopic: 'a', deadLetterTopic: 'd' }))).not.toContain('Write topic agent-runs-rescore');
    expect(summary(dashboardAcls({ resultsTopic: 'agent-scores', decisionsTopic: 'agent-score-decisions', agreementsTopic: 'agent-score-agreements' }))).toContain('Read topic agent-score-agreements');
    expect(summary(dashboardAcls({ resultsTopic: 'agent-scores', decisionsTopic: 'agent-score-decisions', latestScoresTopic: 'agent-runs-thread-scores' }))).toContain('Read topic agent-runs-thread-scores');
  });

  it('no decisions topic, no decisions ACL', () => {
    expect(summary(serviceAcls({ topics: { ...topics, decisions: undefined }, groupId: 'g', delivery: 'at-least-once' }))).not.toContain('Write topic agent-score-decisions');
  });

  it('producer, tail, dashboard, replay and creation', () => {
    expect(summary(producerAcls({ runsTopic: 'agent-runs' }))).toEqual(['Write topic agent-runs']);
    expect(summary(tailAcls({ resultsTopic: 'agent-scores' }))).toEqual(['Read topic agent-scores', 'Read group scorestream-tail-*']);
    expect(summary(dashboardAcls({ resultsTopic: 'agent-scores', decisionsTopic: 'agent-score-decisions' }))).toEqual(['Read topic agent-scores', 'Read topic agent-score-decisions', 'Read group scorestream-dashboard*']);
    expect(summary(replayAcls({ topics, groupId: 'scorestream', delivery: 'exactly-once' }))).toEqual([
      'Read topic agent-runs',
      'Write topic agent-scores',
      'Write topic agent-runs-dlq',
      'Write topic agent-score-decisions',
      'Read+Write topic agent-runs-replays',
      'Read group scorestream.*',
      'Delete group scorestream.*',
      'Write+Describe transactional-id scorestream.*',
    ]);
    expect(summary(creationAcls(['agent-scores']))).toEqual(['Create topic agent-scores']);
  });

  it('renders kafka-acls.sh commands and kafkajs createAcls entries', () => {
    const grants = serviceAcls({ topics, groupId: 'scorestream', delivery: 'exactly-once' });
    expect(renderKafkaAcls('User:svc', grants).at(-1)).toBe(
      "kafka-acls.sh $ADMIN --add --allow-principal 'User:svc' --operation Write --operation Describe --transactional-id 'scorestream-' --resource-pattern-type prefixed",
    );
    const entries = toKafkajsAcls('User:svc', grants);
    expect(entries).toHaveLength(15);
    expect(entries.at(-1)).toEqual({ resourceType: 5, resourceName: 'scorestream-', resourcePatternType: 4, principal: 'User:svc', host: '*', operation: 8, permissionType: 3 });
    expect(entries[0]).toEqual({ resourceType: 2, resourceName: 'agent-runs', resourcePatternType: 3, principal: 'User:svc', host: '*', operation: 3, permissionType: 3 });
  });

  it('docs/security.md lists exactly the commands of each role', () => {
    const docs = readFileSync(new URL('../../../docs/security.md', import.meta.url), 'utf8');
    const documented = docs.split('\n').filter((line) => line.startsWith('kafka-acls.sh '));
    const expected = [
      ...renderKafkaAcls('User:scorestream', serviceAcls({ topics: { ...topics, rescore: 'agent-runs-rescore' }, groupId: 'scorestream', delivery: 'exactly-once' })),
      ...renderKafkaAcls('User:scorestream', threadGrants(serviceAcls({ topics: { ...topics, threads: threadTopicsFor(topics.runs) }, groupId: 'scorestream', delivery: 'exactly-once' }))),
      ...renderKafkaAcls('User:agent-producer', producerAcls({ runsTopic: topics.runs })),
      ...renderKafkaAcls('User:scorestream-tail', tailAcls({ resultsTopic: topics.results })),
      ...renderKafkaAcls('User:scorestream-dashboard', dashboardAcls({ resultsTopic: topics.results, decisionsTopic: topics.decisions, agreementsTopic: 'agent-score-agreements', latestScoresTopic: threadTopicsFor(topics.runs).latestScores })),
      ...renderKafkaAcls('User:scorestream-agreement', agreementAcls({ feedbackTopic: 'agent-feedback', resultsTopic: topics.results, agreementsTopic: 'agent-score-agreements', deadLetterTopic: 'agent-feedback-dlq', rescoreTopic: 'agent-runs-rescore' })),
      ...renderKafkaAcls('User:scorestream-replay', replayAcls({ topics, groupId: 'scorestream', delivery: 'at-least-once' })),
      ...renderKafkaAcls('User:scorestream', creationAcls([topics.results, topics.deadLetter, topics.decisions, ...topics.retryTiers])),
    ].filter((line) => line.startsWith('kafka-acls.sh '));
    expect(documented).toEqual(expected);
  });
});
