// The environment's say over `input` (input-schema.ts): SCORESTREAM_INPUT_FORMAT ('run-event' or
// 'otlp') and SCORESTREAM_INPUT_ENCODING ('otlp_proto' or 'otlp_json'), so the same image reads a
// Collector's topic without a config change. An encoding alone switches nothing: it applies when
// the format (from the config or the environment) is 'otlp'.
import type { ConfigProblem } from './config-error.ts';
import type { ScorestreamConfigInput } from './config-types.ts';
import { OTLP_ENCODINGS } from '../otlp/otlp-encodings.ts';
import { INPUT_FORMATS } from './input-schema.ts';

const listed = (values: readonly string[]) => values.map((value) => `'${value}'`).join(', ');

export function applyInputOverrides<Event>(result: ScorestreamConfigInput<Event>, value: (name: string) => string | undefined, problems: ConfigProblem[]): void {
  const format = value('SCORESTREAM_INPUT_FORMAT')?.toLowerCase();
  const encoding = value('SCORESTREAM_INPUT_ENCODING')?.toLowerCase();
  if (format === undefined && encoding === undefined) return;
  if (format !== undefined && !(INPUT_FORMATS as readonly string[]).includes(format)) {
    problems.push({ path: 'env SCORESTREAM_INPUT_FORMAT', message: `expected one of ${listed(INPUT_FORMATS)}, got '${value('SCORESTREAM_INPUT_FORMAT')}'` });
    return;
  }
  if (encoding !== undefined && !(OTLP_ENCODINGS as readonly string[]).includes(encoding)) {
    problems.push({ path: 'env SCORESTREAM_INPUT_ENCODING', message: `expected one of ${listed(OTLP_ENCODINGS)}, got '${value('SCORESTREAM_INPUT_ENCODING')}'` });
    return;
  }
  const configured = typeof result.input === 'object' && result.input !== null ? result.input : undefined;
  const chosen = format ?? configured?.format ?? 'run-event';
  if (chosen === 'run-event') {
    result.input = { format: 'run-event' };
    return;
  }
  const otlp = configured?.format === 'otlp' ? configured : { format: 'otlp' as const };
  result.input = { ...otlp, ...(encoding === undefined ? {} : { encoding: encoding as (typeof OTLP_ENCODINGS)[number] }) };
}
