import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { rescoreTopicOption, run } from '../../../../cli/commands/agreement.ts';

beforeEach(() => {
  vi.spyOn(console, 'log').mockImplementation(() => undefined);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(() => vi.restoreAllMocks());

describe('scorestream agreement', () => {
  it.each([
    [['--ttl', '1 day'], /--ttl: expected a positive duration/],
    [['--window', '0m'], /--window: expected a positive duration/],
    [['--max-runs', '2.5'], /--max-runs must be a positive integer/],
    [['--bogus'], /usage: scorestream agreement/],
    [['--rescore-topic', 'asks', '--no-rescore'], /--rescore-topic and --no-rescore contradict each other/],
  ])('exits 2 for %j', async (argv, message) => {
    expect(await run(argv)).toBe(2);
    expect(vi.mocked(console.error).mock.calls.join('\n')).toMatch(message);
  });
});

describe('where the join asks for re-scores', () => {
  it('--rescore-topic, else SCORESTREAM_TOPIC_RESCORE, else agent-runs-rescore; none with --no-rescore', () => {
    expect(rescoreTopicOption({ 'rescore-topic': 'asks' }, { SCORESTREAM_TOPIC_RESCORE: 'env-asks' })).toBe('asks');
    expect(rescoreTopicOption({}, { SCORESTREAM_TOPIC_RESCORE: 'env-asks' })).toBe('env-asks');
    expect(rescoreTopicOption({}, {})).toBe('agent-runs-rescore');
    expect(rescoreTopicOption({ 'no-rescore': true }, {})).toBeNull();
  });
});
