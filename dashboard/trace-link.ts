// Links from a record to its trace. A setting (`--trace-url`, SCORESTREAM_TRACE_URL) is either a
// URL template with `{traceId}` and optionally `{spanId}` — each replaced by its URL-encoded
// value, so an id can never change the link's scheme, host or path — or a preset:
//   jaeger[=http://localhost:16686]  Jaeger's trace page, the span found by uiFind
//   tempo[=http://localhost:3000]    Grafana Explore on a Tempo data source with uid `tempo`; its
//                                    URL carries the query as JSON inside the `panes` parameter
// No setting, no links.
export type TraceIds = { traceId: string; spanId?: string | undefined };
export type TraceLink = (ids: TraceIds) => string;

const enc = encodeURIComponent;

function baseUrl(text: string, what: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new RangeError(`${what}: '${text}' is not a URL; give an http(s) URL such as http://localhost:16686`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new RangeError(`${what}: only http and https links are allowed, got '${url.protocol}'`);
  return text.replace(/\/+$/, '');
}

export function jaegerLink(base = 'http://localhost:16686'): TraceLink {
  const root = baseUrl(base, 'jaeger trace URL');
  return ({ traceId, spanId }) => `${root}/trace/${enc(traceId)}${spanId ? `?uiFind=${enc(spanId)}` : ''}`;
}

export function tempoLink(base = 'http://localhost:3000', datasourceUid = 'tempo'): TraceLink {
  const root = baseUrl(base, 'tempo (Grafana) URL');
  return ({ traceId }) => {
    const panes = {
      trace: {
        datasource: datasourceUid,
        queries: [{ refId: 'A', datasource: { type: 'tempo', uid: datasourceUid }, queryType: 'traceql', query: traceId }],
        range: { from: 'now-6h', to: 'now' },
      },
    };
    return `${root}/explore?schemaVersion=1&orgId=1&panes=${enc(JSON.stringify(panes))}`;
  };
}

export function templateLink(template: string): TraceLink {
  if (!template.includes('{traceId}')) throw new RangeError(`trace URL template '${template}' has no {traceId} placeholder (or use a preset: jaeger, tempo)`);
  baseUrl(template.replaceAll('{traceId}', 'x').replaceAll('{spanId}', 'x'), 'trace URL template');
  return ({ traceId, spanId }) => template.replaceAll('{traceId}', enc(traceId)).replaceAll('{spanId}', enc(spanId ?? ''));
}

/** The link builder for a setting, or undefined when none is configured; throws on a bad setting. */
export function traceLinkFrom(setting: string | undefined): TraceLink | undefined {
  const text = setting?.trim();
  if (text === undefined || text === '') return undefined;
  const [preset, base] = splitPreset(text);
  if (preset === 'jaeger') return jaegerLink(base);
  if (preset === 'tempo') return tempoLink(base);
  return templateLink(text);
}

function splitPreset(text: string): [string, string | undefined] {
  const at = text.indexOf('=');
  const name = at < 0 ? text : text.slice(0, at);
  return name === 'jaeger' || name === 'tempo' ? [name, at < 0 ? undefined : text.slice(at + 1)] : ['', undefined];
}
