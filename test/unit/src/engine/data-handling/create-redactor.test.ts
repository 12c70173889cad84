// The redactor: each built-in pattern on what it must catch and on what it must leave alone, a
// deployment's own patterns and hook, and text that nothing matches coming back as the same string.
import { describe, expect, it } from 'vitest';
import { createRedactor, noRedaction } from '../../../../../src/engine/data-handling/create-redactor.ts';
import { passesLuhn } from '../../../../../src/engine/data-handling/redaction-patterns.ts';
import { redactionSchema } from '../../../../../src/engine/data-handling/redaction-schema.ts';
import type { RedactionInput } from '../../../../../src/engine/data-handling/redaction-schema.ts';

const redactorFor = (input: RedactionInput = {}) => createRedactor(redactionSchema.parse(input));
const redact = redactorFor();

describe('the built-in redactions', () => {
  it('replaces email addresses', () => {
    expect(redact('write to alice.smith+billing@example.co.uk today')).toBe('write to [redacted:email] today');
    expect(redact('a@b.io and c_d@mail-server.example.com')).toBe('[redacted:email] and [redacted:email]');
  });

  it('replaces card numbers that pass the Luhn check, grouped or not, and keeps other long numbers', () => {
    expect(redact('card 4111 1111 1111 1111 exp 12/29')).toBe('card [redacted:card-number] exp 12/29');
    expect(redact('card 4111-1111-1111-1111.')).toBe('card [redacted:card-number].');
    expect(redact('amex 378282246310005')).toBe('amex [redacted:card-number]');
    // Same shape, fails Luhn: an order number stays.
    expect(redact('order 4111111111111112 shipped')).toBe('order 4111111111111112 shipped');
    // Too short for a card, and a card inside a longer digit run is not a card.
    expect(redact('ticket 123456789012')).toBe('ticket 123456789012');
    expect(redact('id 94111111111111111119')).toBe('id 94111111111111111119');
  });

  it('replaces provider API keys and values named like secrets', () => {
    expect(redact('OPENAI_API_KEY is sk-proj-abcdefghijklmnopqrstuvwx1234')).toBe('OPENAI_API_KEY is [redacted:api-key]');
    expect(redact('key sk-ant-api03-abcdefghijklmnopqrstuvwxyz')).toBe('key [redacted:api-key]');
    expect(redact('aws AKIAIOSFODNN7EXAMPLE, gh ghp_abcdefghijklmnopqrstuvwxyz0123456789')).toBe('aws [redacted:api-key], gh [redacted:api-key]');
    expect(redact('stripe sk_live_abcdefghijklmnop1234')).toBe('stripe [redacted:api-key]');
    expect(redact('api_key=s3cr3tv4lue&x=1')).toBe('api_key=[redacted:api-key]&x=1');
    expect(redact('{"password": "hunter2hunter2"}')).toBe('{"password": "[redacted:api-key]"}');
  });

  it('replaces bearer tokens and JSON web tokens', () => {
    expect(redact('Authorization: Bearer abc.def-ghi_jkl123==')).toBe('Authorization: Bearer [redacted:bearer-token]');
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';
    expect(redact(`token ${jwt} end`)).toBe('token [redacted:bearer-token] end');
  });

  it('leaves text without any of them as the very same string', () => {
    const text = 'Order 1234 shipped on 2026-11-29; call us at support (no address given).';
    expect(redact(text)).toBe(text);
  });

  it('inserts its marker literally, whatever the text around it holds', () => {
    expect(redact("$& $1 $' alice@example.com $`")).toBe("$& $1 $' [redacted:email] $`");
  });
});

describe('configuring redaction', () => {
  it('uses only the built-ins named, or none', () => {
    const emailsOnly = redactorFor({ builtins: ['email'] });
    expect(emailsOnly('alice@example.com 4111 1111 1111 1111')).toBe('[redacted:email] 4111 1111 1111 1111');
    expect(redactorFor({ builtins: false })('alice@example.com')).toBe('alice@example.com');
    expect(createRedactor(redactionSchema.parse({ builtins: false }))).toBe(noRedaction);
  });

  it("replaces a deployment's own patterns by their name, from a string or a RegExp", () => {
    const own = redactorFor({ patterns: [{ name: 'customer-id', pattern: 'CUST-\\d{6}' }, { name: 'ticket', pattern: /TKT\d+/i }] });
    expect(own('CUST-123456 opened tkt99 for alice@example.com')).toBe('[redacted:customer-id] opened [redacted:ticket] for [redacted:email]');
  });

  it('runs the hook after the patterns, on every string', () => {
    const hooked = redactorFor({ redact: (text) => text.replaceAll('Acme Corp', '[redacted:company]') });
    expect(hooked('Acme Corp, alice@example.com')).toBe('[redacted:company], [redacted:email]');
  });

  it('calls the hook for every string, the same one again too (a hook is not remembered)', () => {
    const seen: string[] = [];
    const hooked = redactorFor({ redact: (text) => (seen.push(text), text) });
    hooked('repeated text');
    hooked('repeated text');
    expect(seen).toEqual(['repeated text', 'repeated text']);
  });

  it('gives a remembered short string the same result as the first time, past the memory being cleared', () => {
    const own = redactorFor({ patterns: [{ name: 'ticket', pattern: 'TKT\\d+' }] });
    const texts = ['a@b.io', 'x', 'api_key=abcdef123', 'TKT42 done', 'password', 'plain words', 'sk-abcdefghijklmnopqrstuvwxyz'];
    const first = texts.map((text) => own(text));
    expect(first).toEqual(['[redacted:email]', 'x', 'api_key=[redacted:api-key]', '[redacted:ticket] done', 'password', 'plain words', '[redacted:api-key]']);
    // More distinct short strings than are remembered, then the same texts again.
    for (let index = 0; index < 10_000; index += 1) own(`filler ${index}`);
    expect(texts.map((text) => own(text))).toEqual(first);
    expect(texts.map((text) => redact(text))).toEqual(texts.map((text) => redact(text)));
  });

  it('refuses a pattern that is not a regular expression or matches the empty string, saying why', () => {
    const bad = redactionSchema.safeParse({ patterns: [{ name: 'broken', pattern: '(' }, { name: 'empty', pattern: 'x*' }] });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues.map((issue) => [issue.path.join('.'), issue.message.split(':')[0]])).toEqual([
      ['patterns.0.pattern', 'not a valid regular expression'],
      ['patterns.1.pattern', 'the pattern matches the empty string; it must match the text to redact'],
    ]);
  });
});

describe('passesLuhn', () => {
  it('accepts the test card numbers of the card schemes and refuses a changed digit', () => {
    for (const number of ['4111111111111111', '5555555555554444', '378282246310005', '6011111111111117', '3530111333300000']) expect(passesLuhn(number), number).toBe(true);
    expect(passesLuhn('4111111111111121')).toBe(false);
    expect(passesLuhn('0000')).toBe(false);
  });
});
