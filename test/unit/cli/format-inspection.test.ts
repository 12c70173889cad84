import { describe, expect, it } from 'vitest';
import { formatInspectedTrace } from '../../../cli/format-inspection.ts';
import { terminalSafe } from '../../../cli/terminal-text.ts';
import { inspectTrace } from '../../../src/engine/otlp/inspect-trace.ts';
import type { OtlpSpan } from '../../../src/engine/otlp/otlp-span.ts';
import { fixtureTraces } from '../../helpers/framework-fixtures.ts';

const options = { nestedAgents: 'outermost', rootSpanRuns: true } as const;

function span(overrides: Partial<OtlpSpan> & Pick<OtlpSpan, 'spanId' | 'name'>): OtlpSpan {
  return { traceId: '0af7651916cd43dd8448eb211c80319c', startTimeMs: 1, endTimeMs: 2, attributes: {}, events: [], status: { code: 0 }, resource: { 'service.name': 'app' }, ...overrides };
}

describe('terminalSafe', () => {
  it('writes escape sequences, other control characters and bidi overrides as visible escapes, and keeps tabs and text', () => {
    expect(terminalSafe('a\u001b[2Jb\u0007c\u009bd\u202ee\tf é')).toBe('a\\u001b[2Jb\\u0007c\\u009bd\\u202ee\tf é');
    expect(terminalSafe('line\nbreak\r')).toBe('line\\u000abreak\\u000d');
  });
});

describe('formatInspectedTrace', () => {
  it('shows the run of a real framework trace: rule, question, answer, tool call, ids, and what no reader used', () => {
    const [spans] = fixtureTraces('openai-agents-python');
    const inspected = inspectTrace(spans!, options);
    expect(inspected.runs).toHaveLength(1);
    const text = formatInspectedTrace(inspected);
    expect(text).toContain("rule agent_span  span 'Agent workflow'  (8 spans: OpenInference ×8)");
    expect(text).toContain('question      "What is the weather in Paris?"   (llm.input_messages of \'response\')');
    expect(text).toContain('answer        "It is sunny in Paris, 21°C."');
    expect(text).toContain('tool calls    get_weather {"city":"Paris"} → sunny, 21°C in Paris');
    expect(text).toContain('conversation  session-42, user user-7');
    const unmapped = inspected.runs[0]!.unmapped.map((entry) => entry.key);
    expect(text).toContain('tools offered get_weather');
    // the request settings are not part of the run; the tools offered and session.id are (read on one span, it counts for all)
    expect(unmapped).toEqual(expect.arrayContaining(['llm.invocation_parameters']));
    expect(unmapped).not.toContain('llm.tools.*.tool.json_schema');
    expect(unmapped).not.toContain('tool.parameters');
    expect(unmapped).not.toContain('session.id');
    expect(unmapped).not.toContain('openinference.span.kind');
  });

  it('says what is missing and why a trace has no run', () => {
    const [noContent] = fixtureTraces('openai-v2-python-no-content');
    const text = formatInspectedTrace(inspectTrace(noContent!, options));
    expect(text).toContain('rule root_span');
    expect(text).toContain("missing       question: no user message in the spans of the run ('answer_question', 'chat scripted-model' ×2)");
    const plain = [span({ spanId: '1111111111111111', name: 'GET /health' }), span({ spanId: '2222222222222222', parentSpanId: '1111111111111111', name: 'SELECT 1' })];
    expect(formatInspectedTrace(inspectTrace(plain, options))).toContain('no run: not_an_agent_trace: no agent span');
  });

  it('prints hostile strings from the trace as text: no escape sequence, no injected line', () => {
    const hostile = '\u001b]0;owned\u0007\u001b[2J\nfake line';
    const spans = [
      span({ spanId: '1111111111111111', name: `invoke_agent ${hostile}`, attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': hostile, 'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: hostile }] }]) } }),
    ];
    const text = formatInspectedTrace(inspectTrace(spans, options));
    expect([...text].filter((character) => character !== '\n' && (character < ' ' || (character >= '\u007f' && character <= '\u009f')))).toEqual([]);
    expect(text).toContain('\\u001b]0;owned\\u0007\\u001b[2J');
    expect(text.split('\n').some((line) => line.startsWith('fake line'))).toBe(false);
  });
});
