import { describe, expect, it } from 'vitest';
import { isAgentSpan } from '../../../../../src/engine/otlp/agent-spans.ts';
import type { OtlpSpan } from '../../../../../src/engine/otlp/otlp-span.ts';
import { TraceAssembler } from '../../../../../src/engine/otlp/trace-assembler.ts';
import type { TraceAssemblyLimits } from '../../../../../src/engine/otlp/trace-assembler.ts';

const limits: TraceAssemblyLimits = { gracePeriodMs: 2_000, idleTimeoutMs: 10_000, maxOpenTraces: 100, maxSpansPerTrace: 50 };
const trace = (n: number) => n.toString(16).padStart(32, '0');
const spanId = (n: number) => n.toString(16).padStart(16, '0');

function span(traceNo: number, id: number, parent?: number, agent = false): OtlpSpan {
  return {
    traceId: trace(traceNo),
    spanId: spanId(id),
    ...(parent === undefined ? {} : { parentSpanId: spanId(parent) }),
    name: agent ? 'invoke_agent' : 'work',
    startTimeMs: 0,
    endTimeMs: 1,
    attributes: agent ? { 'gen_ai.operation.name': 'invoke_agent' } : {},
    events: [],
    status: { code: 0 },
    resource: {},
  };
}

const assembler = (overrides: Partial<TraceAssemblyLimits> = {}) => new TraceAssembler<string>({ ...limits, ...overrides }, isAgentSpan);

describe('TraceAssembler', () => {
  it('closes a trace the grace period after its agent span arrived, with descendants from later batches', () => {
    const a = assembler();
    expect(a.add([span(1, 2, 1)], 'm1', 0).openedOrJoined).toEqual([trace(1)]);
    a.add([span(1, 1, 9, true)], 'm2', 1_000);
    expect(a.nextDeadline()).toBe(3_000);
    a.add([span(1, 3, 1)], 'm3', 2_500);
    expect(a.closeDue(2_999)).toEqual([]);
    const [closed] = a.closeDue(3_000);
    expect(closed).toMatchObject({ traceId: trace(1), reason: 'ready', owners: ['m1', 'm2', 'm3'], rootArrived: false });
    expect(closed!.spans.map((s) => s.spanId)).toEqual([spanId(2), spanId(1), spanId(3)]);
    expect(closed!.ownerOf(spanId(1))).toBe('m2');
    expect(a.openTraces).toBe(0);
    expect(a.bufferedSpans).toBe(0);
  });

  it('a later agent or root span extends the grace period', () => {
    const a = assembler();
    a.add([span(1, 2, 1, true)], 'm1', 0);
    a.add([span(1, 1)], 'm2', 1_500);
    expect(a.closeDue(2_000)).toEqual([]);
    expect(a.closeDue(3_500)).toHaveLength(1);
  });

  it('closes a trace without an agent span once its root ended plus the grace period', () => {
    const a = assembler();
    a.add([span(1, 2, 1), span(1, 1)], 'm1', 0);
    expect(a.closeDue(2_000)).toMatchObject([{ reason: 'ready', rootArrived: true }]);
  });

  it('closes a trace that never shows a root or agent span after the idle timeout since its last span', () => {
    const a = assembler();
    a.add([span(1, 2, 1)], 'm1', 0);
    a.add([span(1, 3, 1)], 'm2', 5_000);
    expect(a.closeDue(14_999)).toEqual([]);
    expect(a.closeDue(15_000)).toMatchObject([{ reason: 'idle', owners: ['m1', 'm2'] }]);
  });

  it('keeps a span delivered twice once (a re-read message)', () => {
    const a = assembler();
    a.add([span(1, 1, undefined, true)], 'm1', 0);
    a.add([span(1, 1, undefined, true)], 'm1-again', 0);
    expect(a.bufferedSpans).toBe(1);
    expect(a.closeDue(2_000)[0]!.owners).toEqual(['m1', 'm1-again']);
  });

  it('keeps each span once and knows its owner in a trace of many spans from several messages, past the size where a trace indexes its span ids', () => {
    const a = assembler();
    const ids = Array.from({ length: 40 }, (_, index) => index + 2);
    a.add(ids.slice(0, 10).map((id) => span(1, id, 1)), 'm1', 0);
    a.add(ids.slice(5, 25).map((id) => span(1, id, 1)), 'm2', 10);
    a.add([...ids.slice(0, 40).map((id) => span(1, id, 1)), span(1, 1, undefined, true)], 'm3', 20);
    expect(a.bufferedSpans).toBe(41);
    const [closed] = a.closeDue(2_020);
    expect(closed!.spans.map((held) => held.spanId)).toEqual([...ids.map(spanId), spanId(1)]);
    expect(closed!.owners).toEqual(['m1', 'm2', 'm3']);
    expect(ids.map((id) => closed!.ownerOf(spanId(id)))).toEqual(ids.map((id) => (id < 12 ? 'm1' : id < 27 ? 'm2' : 'm3')));
    expect(closed!.ownerOf(spanId(1))).toBe('m3');
    expect(closed!.ownerOf(spanId(99))).toBeUndefined();
  });

  it('knows the owner of each span of a small trace fed by two messages, and of one fed by a single message', () => {
    const a = assembler();
    a.add([span(1, 2, 1), span(2, 2, 1)], 'm1', 0);
    a.add([span(1, 3, 1), span(1, 2, 1), span(1, 1, undefined, true), span(2, 1, undefined, true)], 'm2', 10);
    const closed = a.closeDue(2_010);
    expect(closed.map((trace) => trace.spans.map((held) => [held.spanId, trace.ownerOf(held.spanId)]))).toEqual([
      [[spanId(2), 'm1'], [spanId(3), 'm2'], [spanId(1), 'm2']],
      [[spanId(2), 'm1'], [spanId(1), 'm2']],
    ]);
    const single = assembler();
    single.add([span(3, 2, 1), span(3, 1, undefined, true)], 'only', 0);
    const [only] = single.closeDue(2_000);
    expect([only!.ownerOf(spanId(1)), only!.ownerOf(spanId(2)), only!.ownerOf(spanId(3))]).toEqual(['only', 'only', undefined]);
  });

  it('on too many open traces closes the oldest as an overflow', () => {
    const a = assembler({ maxOpenTraces: 2 });
    a.add([span(1, 1, 9)], 'm1', 0);
    a.add([span(2, 1, 9)], 'm2', 1);
    const added = a.add([span(3, 1, 9)], 'm3', 2);
    expect(added.overflowed).toMatchObject([{ traceId: trace(1), reason: 'overflow', owners: ['m1'] }]);
    expect(added.openedOrJoined).toEqual([trace(3)]);
    expect(a.openTraces).toBe(2);
  });

  it('closes a trace that reaches its span cap at once, and counts its later spans as late', () => {
    const a = assembler({ maxSpansPerTrace: 3 });
    const added = a.add([span(1, 1, 9), span(1, 2, 9), span(1, 3, 9), span(1, 4, 9)], 'm1', 0);
    expect(added.overflowed).toHaveLength(1);
    expect(added.overflowed[0]!.spans).toHaveLength(3);
    expect(added.lateSpans).toBe(1);
    expect(added.openedOrJoined).toEqual([]);
  });

  it('drops spans of a closed trace as late (a re-read partition gets a fresh assembler: consumers/otlp-source.ts)', () => {
    const a = assembler();
    a.add([span(1, 1, undefined, true)], 'm1', 0);
    a.closeDue(2_000);
    expect(a.add([span(1, 2, 1)], 'm2', 2_100)).toMatchObject({ lateSpans: 1, openedOrJoined: [] });
    expect(assembler().add([span(1, 1, undefined, true)], 'm1-reread', 3_000)).toMatchObject({ lateSpans: 0, openedOrJoined: [trace(1)] });
  });

  it('says how many traces spans would open, which is the oldest, and closes it as an overflow on request', () => {
    const a = assembler();
    a.add([span(1, 1, 9)], 'm1', 10);
    a.add([span(2, 1, 9)], 'm2', 20);
    a.add([span(3, 1, undefined, true)], 'm3', 30);
    a.closeDue(3_000);
    // trace 1 and 2 are open, 3 was closed a moment ago: only 4 and 5 would open
    expect(a.tracesToOpen([span(1, 2, 9), span(3, 2, 1), span(4, 1, 9), span(5, 1, 9), span(5, 2, 9)])).toBe(2);
    expect(a.oldestOpenedAt()).toBe(10);
    expect(a.closeOldest()).toMatchObject({ traceId: trace(1), reason: 'overflow', owners: ['m1'] });
    expect(a.oldestOpenedAt()).toBe(20);
    a.closeOldest();
    expect(a.closeOldest()).toBeUndefined();
    expect(a.oldestOpenedAt()).toBeUndefined();
  });

  it('remembers at most maxOpenTraces closed trace ids', () => {
    const a = assembler({ maxOpenTraces: 2 });
    for (const n of [1, 2, 3]) a.add([span(n, 1, undefined, true)], `m${n}`, 0);
    a.closeAll();
    // trace 1 was the first one closed (by overflow), so it is forgotten first
    expect(a.add([span(1, 5, 1)], 'late', 10).lateSpans).toBe(0);
    expect(a.add([span(3, 5, 1)], 'late', 10).lateSpans).toBe(1);
  });

  it('does not treat Scorestream judge agent spans as run spans', () => {
    const a = assembler();
    const judge = { ...span(1, 2, 1, true), attributes: { 'gen_ai.operation.name': 'invoke_agent', 'scorestream.origin': 'judge' } };
    a.add([judge], 'm1', 0);
    expect(a.nextDeadline()).toBe(10_000);
  });

  it('closes exactly the due traces, earliest first, and names the next deadline, over random traffic (against a scan of every trace)', () => {
    // The reference: each open trace's deadline from its own arrivals, found by looking at all of them.
    let seed = 7;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648);
    const a = assembler({ maxOpenTraces: 10_000, maxSpansPerTrace: 10_000 });
    const model = new Map<string, { lastArrival: number; readyAt: number | undefined }>();
    const closedIds = new Set<string>();
    const deadline = (entry: { lastArrival: number; readyAt: number | undefined }) => (entry.readyAt === undefined ? entry.lastArrival + limits.idleTimeoutMs : entry.readyAt + limits.gracePeriodMs);
    let now = 0;
    let nextSpan = 1;
    for (let step = 0; step < 3_000; step += 1) {
      now += Math.floor(random() * 300);
      if (random() < 0.7) {
        const spans: OtlpSpan[] = [];
        for (let n = 1 + Math.floor(random() * 4); n > 0; n -= 1) {
          const traceNo = 1 + Math.floor(random() * 200);
          if (closedIds.has(trace(traceNo))) continue;
          const runSpan = random() < 0.15;
          spans.push(span(traceNo, nextSpan++, runSpan ? undefined : 9, false));
          const entry = model.get(trace(traceNo)) ?? { lastArrival: now, readyAt: undefined };
          entry.lastArrival = now;
          if (runSpan) entry.readyAt = now;
          model.set(trace(traceNo), entry);
        }
        a.add(spans, `m${step}`, now);
      } else {
        const expected = [...model].filter(([, entry]) => deadline(entry) <= now).sort((x, y) => deadline(x[1]) - deadline(y[1]));
        const closed = a.closeDue(now);
        expect(closed.map((c) => c.traceId).sort()).toEqual(expected.map(([id]) => id).sort());
        const deadlines = closed.map((c) => deadline(model.get(c.traceId)!));
        expect(deadlines).toEqual([...deadlines].sort((x, y) => x - y));
        for (const [id] of expected) {
          model.delete(id);
          closedIds.add(id);
        }
      }
      const open = [...model.values()].map(deadline);
      expect(a.nextDeadline()).toBe(open.length === 0 ? undefined : Math.min(...open));
      expect(a.openTraces).toBe(model.size);
    }
  });

  it('takes a clock stepped back as the latest time seen: a close is delayed by the step, never brought forward', () => {
    const a = assembler();
    a.add([span(1, 1, undefined, true)], 'm1', 10_000);
    a.add([span(2, 1, undefined, true)], 'm2', 4_000); // the clock went back 6 s
    expect(a.nextDeadline()).toBe(12_000);
    expect(a.closeDue(11_999)).toEqual([]);
    expect(a.closeDue(12_000).map((c) => c.traceId)).toEqual([trace(1), trace(2)]);
  });
});
