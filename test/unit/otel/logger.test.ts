// The service logger, written to a sink: trace correlation fields inside an active span, and
// secrets redacted wherever the logged objects carry them.
import { context, ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';
import type { Context, ContextManager } from '@opentelemetry/api';
import type { DestinationStream } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger, loggerSettingsFromEnvironment, redactLine } from '../../../otel/logger.ts';
import { createRedactor } from '../../../src/engine/data-handling/create-redactor.ts';
import { redactionSchema } from '../../../src/engine/data-handling/redaction-schema.ts';

/** Collects the JSON lines a logger writes. */
function sink() {
  const lines: Record<string, unknown>[] = [];
  const destination: DestinationStream = {
    write(line: string) {
      lines.push(JSON.parse(line) as Record<string, unknown>);
    },
  };
  return { destination, lines };
}

/**
 * A synchronous context manager (a stack), enough for `context.with(ctx, fn)` around a log call,
 * so the test needs no SDK package. Registered per test and removed after it.
 */
class StackContextManager implements ContextManager {
  private readonly stack: Context[] = [];
  active(): Context {
    return this.stack.at(-1) ?? ROOT_CONTEXT;
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(value: Context, fn: F, thisArg?: ThisParameterType<F>, ...args: A): ReturnType<F> {
    this.stack.push(value);
    try {
      return fn.call(thisArg, ...args);
    } finally {
      this.stack.pop();
    }
  }
  bind<T>(_context: Context, target: T): T {
    return target;
  }
  enable(): this {
    return this;
  }
  disable(): this {
    this.stack.length = 0;
    return this;
  }
}

const traceId = '0af7651916cd43dd8448eb211c80319c';
const spanId = 'b7ad6b7169203331';

describe('createLogger', () => {
  beforeEach(() => {
    context.setGlobalContextManager(new StackContextManager());
  });
  afterEach(() => {
    context.disable();
  });

  it('writes JSON lines with the service name and level', () => {
    const { destination, lines } = sink();
    createLogger({ destination, level: 'debug' }).debug({ partition: 3 }, 'fetched');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ name: 'scorestream', level: 20, msg: 'fetched', partition: 3 });
  });

  it('drops lines below the level', () => {
    const { destination, lines } = sink();
    const logger = createLogger({ destination, level: 'warn' });
    logger.info('quiet');
    logger.warn('loud');
    expect(lines.map((line) => line.msg)).toEqual(['loud']);
  });

  it('adds trace_id, span_id and trace_flags to lines written inside an active span', () => {
    const { destination, lines } = sink();
    const logger = createLogger({ destination });
    const span = trace.wrapSpanContext({ traceId, spanId, traceFlags: TraceFlags.SAMPLED });
    context.with(trace.setSpan(ROOT_CONTEXT, span), () => logger.info('inside'));
    logger.info('outside');
    expect(lines[0]).toMatchObject({ msg: 'inside', trace_id: traceId, span_id: spanId, trace_flags: '01' });
    expect(lines[1]!.msg).toBe('outside');
    expect(lines[1]).not.toHaveProperty('trace_id');
    expect(lines[1]).not.toHaveProperty('span_id');
  });

  it('adds nothing for an invalid span context', () => {
    const { destination, lines } = sink();
    const logger = createLogger({ destination });
    const invalid = trace.wrapSpanContext({ traceId: '0'.repeat(32), spanId: '0'.repeat(16), traceFlags: TraceFlags.NONE });
    context.with(trace.setSpan(ROOT_CONTEXT, invalid), () => logger.info('inside'));
    expect(lines[0]).not.toHaveProperty('trace_id');
  });

  it('carries the trace fields into child loggers', () => {
    const { destination, lines } = sink();
    const child = createLogger({ destination }).child({ component: 'consumer' });
    const span = trace.wrapSpanContext({ traceId, spanId, traceFlags: TraceFlags.NONE });
    context.with(trace.setSpan(ROOT_CONTEXT, span), () => child.info('inside'));
    expect(lines[0]).toMatchObject({ component: 'consumer', trace_id: traceId, span_id: spanId, trace_flags: '00' });
  });

  describe('redaction', () => {
    const secret = 'hunter2-secret-value';

    it.each([
      ['a top-level password', { password: secret }, ['password']],
      ['an apiKey', { apiKey: secret }, ['apiKey']],
      ['a nested apiKey', { judge: { apiKey: secret } }, ['judge', 'apiKey']],
      ['an Authorization header', { headers: { Authorization: `Bearer ${secret}` } }, ['headers', 'Authorization']],
      ['an authorization header', { headers: { authorization: `Bearer ${secret}` } }, ['headers', 'authorization']],
      ['a request’s Authorization header', { request: { headers: { Authorization: `Bearer ${secret}` } } }, ['request', 'headers', 'Authorization']],
      ['an x-api-key header', { headers: { 'x-api-key': secret } }, ['headers', 'x-api-key']],
      ['kafka.sasl.password', { kafka: { sasl: { mechanism: 'plain', username: 'svc', password: secret } } }, ['kafka', 'sasl', 'password']],
      ['config.kafka.sasl.password', { config: { kafka: { sasl: { password: secret } } } }, ['config', 'kafka', 'sasl', 'password']],
      ['sasl.password', { sasl: { password: secret } }, ['sasl', 'password']],
      ['kafka.sasl.clientSecret (OAUTHBEARER)', { kafka: { sasl: { mechanism: 'oauthbearer', clientId: 'svc', clientSecret: secret } } }, ['kafka', 'sasl', 'clientSecret']],
      ['config.kafka.sasl.clientSecret', { config: { kafka: { sasl: { clientSecret: secret } } } }, ['config', 'kafka', 'sasl', 'clientSecret']],
      ['kafka.ssl.key (a client certificate key)', { kafka: { ssl: { cert: 'CERT', key: secret } } }, ['kafka', 'ssl', 'key']],
      ['config.kafka.ssl.key', { config: { kafka: { ssl: { key: secret } } } }, ['config', 'kafka', 'ssl', 'key']],
      ['ssl.key', { ssl: { key: secret } }, ['ssl', 'key']],
      ['a TLS key passphrase', { ssl: { passphrase: secret } }, ['ssl', 'passphrase']],
      ['a token', { token: secret }, ['token']],
      ['a nested secret', { oauth: { secret } }, ['oauth', 'secret']],
    ])('censors %s', (_label, fields, path) => {
      const { destination, lines } = sink();
      createLogger({ destination }).info(fields, 'config loaded');
      const raw = JSON.stringify(lines[0]);
      expect(raw).not.toContain(secret);
      const value = path.reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], lines[0]);
      expect(value).toBe('[redacted]');
    });

    it('keeps the fields next to a secret', () => {
      const { destination, lines } = sink();
      createLogger({ destination }).info({ kafka: { brokers: ['b:9092'], sasl: { mechanism: 'plain', username: 'svc', password: secret } } }, 'config');
      expect(lines[0]).toMatchObject({ kafka: { brokers: ['b:9092'], sasl: { mechanism: 'plain', username: 'svc', password: '[redacted]' } } });
    });

    describe("with the deployment's redactor (docs/data-handling.md)", () => {
      const redact = createRedactor(redactionSchema.parse({}));

      it('redacts addresses, cards and keys in the message, the fields and an error, wherever they are', () => {
        const { destination, lines } = sink();
        const error = new Error('could not parse "alice@example.com" as a name');
        createLogger({ destination, redact }).warn({ err: error, runId: 'r1', note: { card: '4111 1111 1111 1111' } }, 'dead-lettered: Unexpected token in "{"mail": "bob@example.org"');
        const raw = JSON.stringify(lines[0]);
        for (const planted of ['alice@example.com', 'bob@example.org', '4111 1111 1111 1111']) expect(raw).not.toContain(planted);
        expect(lines[0]).toMatchObject({ runId: 'r1', note: { card: '[redacted:card-number]' }, msg: 'dead-lettered: Unexpected token in "{"mail": "[redacted:email]"' });
        expect((lines[0]!.err as { message: string }).message).toBe('could not parse "[redacted:email]" as a name');
      });

      it('writes valid JSON when a match follows an escape in the line (a newline before an address)', () => {
        const { destination, lines } = sink();
        createLogger({ destination, redact }).info('first line\nalice@example.com');
        expect(lines[0]!.msg).toBe('first line\n[redacted:email]');
      });

      it('leaves a line with nothing to redact byte for byte as pino wrote it', () => {
        const line = '{"level":30,"msg":"plain"}\n';
        expect(redactLine(line, redact)).toBe(line);
      });
    });
  });
});

describe('loggerSettingsFromEnvironment', () => {
  it('reads the level from SCORESTREAM_LOG_LEVEL, else LOG_LEVEL', () => {
    expect(loggerSettingsFromEnvironment({ SCORESTREAM_LOG_LEVEL: 'debug', LOG_LEVEL: 'warn' })).toEqual({ level: 'debug' });
    expect(loggerSettingsFromEnvironment({ LOG_LEVEL: 'warn' })).toEqual({ level: 'warn' });
    expect(loggerSettingsFromEnvironment({ LOG_LEVEL: '' })).toEqual({});
  });

  it('turns SCORESTREAM_LOG_PRETTY into a boolean', () => {
    expect(loggerSettingsFromEnvironment({ SCORESTREAM_LOG_PRETTY: '1' })).toEqual({ pretty: true });
    expect(loggerSettingsFromEnvironment({ SCORESTREAM_LOG_PRETTY: 'true' })).toEqual({ pretty: true });
    expect(loggerSettingsFromEnvironment({ SCORESTREAM_LOG_PRETTY: '0' })).toEqual({ pretty: false });
    expect(loggerSettingsFromEnvironment({})).toEqual({});
  });
});
