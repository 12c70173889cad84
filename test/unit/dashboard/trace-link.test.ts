import { describe, expect, it } from 'vitest';
import { traceLinkFrom } from '../../../dashboard/trace-link.ts';

describe('trace links', () => {
  it('none without a setting', () => {
    expect(traceLinkFrom(undefined)).toBeUndefined();
    expect(traceLinkFrom('  ')).toBeUndefined();
  });

  it('fills a template with URL-encoded ids', () => {
    const link = traceLinkFrom('https://traces.example/t/{traceId}?span={spanId}')!;
    expect(link({ traceId: 'abc', spanId: 'def' })).toBe('https://traces.example/t/abc?span=def');
    expect(link({ traceId: '../x?y=1&z#', spanId: undefined })).toBe('https://traces.example/t/..%2Fx%3Fy%3D1%26z%23?span=');
  });

  it('Jaeger: the trace page, the span found by uiFind; a base URL may be given', () => {
    expect(traceLinkFrom('jaeger')!({ traceId: 'abc', spanId: 'def' })).toBe('http://localhost:16686/trace/abc?uiFind=def');
    expect(traceLinkFrom('jaeger=https://jaeger.internal/')!({ traceId: 'abc' })).toBe('https://jaeger.internal/trace/abc');
  });

  it('Tempo: Grafana Explore with the query as JSON inside the panes parameter', () => {
    const url = new URL(traceLinkFrom('tempo=https://grafana.internal')!({ traceId: 'abc"}', spanId: 'def' }));
    expect(`${url.origin}${url.pathname}`).toBe('https://grafana.internal/explore');
    const panes = JSON.parse(url.searchParams.get('panes')!);
    expect(panes.trace.queries[0]).toEqual({ refId: 'A', datasource: { type: 'tempo', uid: 'tempo' }, queryType: 'traceql', query: 'abc"}' });
    expect(panes.trace.datasource).toBe('tempo');
    expect(traceLinkFrom('tempo')!({ traceId: 'abc' })).toMatch(/^http:\/\/localhost:3000\/explore\?/);
  });

  it.each([
    ['https://traces.example/no-placeholder', /no \{traceId\} placeholder/],
    ['javascript:alert({traceId})', /only http and https/],
    ['jaeger=ftp://x', /only http and https/],
    ['tempo=not a url', /not a URL/],
  ])('refuses %s', (setting, message) => {
    expect(() => traceLinkFrom(setting)).toThrow(message);
  });
});
