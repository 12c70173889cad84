import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { run } from '../../../../cli/commands/dashboard.ts';

beforeEach(() => {
  vi.stubEnv('SCORESTREAM_DASHBOARD_TOKEN', '');
  vi.spyOn(console, 'log').mockImplementation(() => undefined);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

describe('scorestream dashboard', () => {
  it.each([
    [['--since', '6 hours'], /--since: expected a positive duration/],
    [['--bucket', '0s'], /--bucket: expected a positive duration/],
    [['--port', '70000'], /--port must be a port number/],
    [['--bogus'], /usage: scorestream dashboard/],
    [['--trace-url', 'javascript:alert({traceId})'], /--trace-url: .*only http and https/],
    [['--trace-url', 'https://traces.example/'], /--trace-url: .*no \{traceId\} placeholder/],
  ])('exits 2 for %j', async (argv, message) => {
    expect(await run(argv)).toBe(2);
    expect(vi.mocked(console.error).mock.calls.join('\n')).toMatch(message);
  });

  it('refuses a non-loopback address without an access token', async () => {
    expect(await run(['--host', '0.0.0.0'])).toBe(2);
    expect(vi.mocked(console.error).mock.calls.join('\n')).toContain('give it an access token (--token or SCORESTREAM_DASHBOARD_TOKEN)');
  });

  it('prints its usage for --help', async () => {
    expect(await run(['--help'])).toBe(0);
    expect(vi.mocked(console.log).mock.calls.join('\n')).toContain('--trace-url U');
  });
});
