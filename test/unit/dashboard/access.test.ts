import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { cookieValue, isLoopbackAddress, isLoopbackHostHeader, requestToken, tokenMatches } from '../../../dashboard/access.ts';
import { bucketWidthFor, parseDuration } from '../../../dashboard/duration.ts';

describe('access', () => {
  it('matches the token exactly', () => {
    expect(tokenMatches('s3cret', 's3cret')).toBe(true);
    expect(tokenMatches('s3cret', 's3cre')).toBe(false);
    expect(tokenMatches('s3cret', undefined)).toBe(false);
  });

  it('reads the token from a bearer header or the cookie', () => {
    expect(requestToken({ headers: { authorization: 'Bearer abc' } } as IncomingMessage)).toBe('abc');
    expect(requestToken({ headers: { cookie: 'a=1; scorestream_dashboard=x%20y' } } as IncomingMessage)).toBe('x y');
    expect(requestToken({ headers: {} } as IncomingMessage)).toBeUndefined();
    expect(cookieValue('scorestream_dashboard=%E0%A4%A', 'scorestream_dashboard')).toBeUndefined();
  });

  it.each([
    ['localhost:4680', true],
    ['127.0.0.1:4680', true],
    ['[::1]:4680', true],
    ['LOCALHOST', true],
    ['evil.example:4680', false],
    ['127.0.0.1.evil.example', false],
    [undefined, false],
  ])('Host %s is loopback: %s', (host, loopback) => {
    expect(isLoopbackHostHeader(host)).toBe(loopback);
  });

  it('tells loopback bind addresses', () => {
    expect(isLoopbackAddress('127.0.0.1')).toBe(true);
    expect(isLoopbackAddress('::1')).toBe(true);
    expect(isLoopbackAddress('0.0.0.0')).toBe(false);
  });
});

describe('durations', () => {
  it('parses a number with a unit', () => {
    expect(parseDuration('6h', '--since')).toBe(21_600_000);
    expect(parseDuration('90s', '--since')).toBe(90_000);
    expect(parseDuration('1.5d', '--since')).toBe(129_600_000);
  });

  it.each(['6', 'h', '-1h', '0m', '6 hours'])('refuses %s with the accepted form', (text) => {
    expect(() => parseDuration(text, '--since')).toThrow(/--since: expected a positive duration such as 30m/);
  });

  it('picks a readable bucket width of about 180 buckets', () => {
    expect(bucketWidthFor(21_600_000)).toBe(120_000);
    expect(bucketWidthFor(3_600_000)).toBe(20_000);
  });
});
