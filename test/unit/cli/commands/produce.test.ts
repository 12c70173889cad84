import { ROOT_CONTEXT } from '@opentelemetry/api';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseProduceArgs, publishAll, run } from '../../../../cli/commands/produce.ts';
import type { Batch } from '../../../../cli/commands/produce.ts';
import type { RunPublisher } from '../../../../producers/run-publisher.ts';

const seed = () => 'fixed-seed';

describe('parseProduceArgs', () => {
  it('reads a sample run with defaults', () => {
    expect(parseProduceArgs(['--sample'], seed)).toEqual({ source: { kind: 'sample', count: 100, seed: 'fixed-seed' }, topic: 'agent-runs', partitions: 6 });
  });

  it('reads every option', () => {
    const argv = ['--sample', '--count', '1000', '--seed', 's1', '--rate', '2.5', '--topic', 'runs', '--partitions', '3', '--brokers', 'a:9092,b:9092'];
    expect(parseProduceArgs(argv, seed)).toEqual({ source: { kind: 'sample', count: 1000, seed: 's1' }, rate: 2.5, topic: 'runs', partitions: 3, brokers: 'a:9092,b:9092' });
  });

  it('reads a file run', () => {
    expect(parseProduceArgs(['--file', 'runs.jsonl'], seed)).toEqual({ source: { kind: 'file', path: 'runs.jsonl' }, topic: 'agent-runs', partitions: 6 });
  });

  it('asks for exactly one source', () => {
    expect(parseProduceArgs([], seed)).toEqual({ error: 'give exactly one of --sample or --file' });
    expect(parseProduceArgs(['--sample', '--file', 'x'], seed)).toEqual({ error: 'give exactly one of --sample or --file' });
  });

  it('rejects sample-only options with a file', () => {
    expect(parseProduceArgs(['--file', 'x', '--count', '3'], seed)).toEqual({ error: '--count and --seed only apply to --sample' });
  });

  it('rejects counts, rates and partitions that are not positive numbers', () => {
    expect(parseProduceArgs(['--sample', '--count', '0'], seed)).toEqual({ error: "--count expects a positive integer, got '0'" });
    expect(parseProduceArgs(['--sample', '--count', '2.5'], seed)).toEqual({ error: "--count expects a positive integer, got '2.5'" });
    expect(parseProduceArgs(['--sample', '--rate', 'fast'], seed)).toEqual({ error: "--rate expects a positive number, got 'fast'" });
    expect(parseProduceArgs(['--sample', '--partitions', '-1'], seed)).toMatchObject({ error: expect.stringContaining('--partitions') });
  });

  it('rejects unknown options, positionals and empty names', () => {
    expect(parseProduceArgs(['--sample', '--nope'], seed)).toMatchObject({ error: expect.stringContaining('--nope') });
    expect(parseProduceArgs(['--sample', 'extra'], seed)).toMatchObject({ error: expect.stringContaining('extra') });
    expect(parseProduceArgs(['--sample', '--topic', ''], seed)).toEqual({ error: '--topic expects a topic name' });
  });

  it('recognises --help', () => {
    expect(parseProduceArgs(['--help'], seed)).toEqual({ help: true });
  });
});

describe('run', () => {
  afterEach(() => vi.restoreAllMocks());

  it('prints the usage and exits 2 on bad arguments, before touching Kafka', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(await run(['--count', 'x'])).toBe(2);
    expect(errors.mock.calls[0]![0]).toContain('usage: scorestream produce');
  });

  it('exits 0 with the usage on --help', async () => {
    const output = vi.spyOn(console, 'log').mockImplementation(() => {});
    expect(await run(['-h'])).toBe(0);
    expect(output.mock.calls[0]![0]).toContain('--sample');
  });

  it('exits 1 with a clear message when the file cannot be read', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(await run(['--file', '/nonexistent/runs.jsonl', '--brokers', '127.0.0.1:1'])).toBe(1);
    expect(errors.mock.calls[0]![0]).toContain("cannot read '/nonexistent/runs.jsonl'");
  });
});

describe('publishAll', () => {
  const runs = (...ids: string[]) => ids.map((runId) => ({ runId }) as never);
  async function* batches(...list: Batch[]) {
    yield* list;
  }
  const stubPublisher = (failOnCall?: number) => {
    const calls: Array<{ runs: unknown[]; contexts: unknown[] }> = [];
    const publisher: RunPublisher = {
      publish: async (published, options) => {
        const list = published as unknown[];
        calls.push({ runs: list, contexts: list.map((run, index) => options?.contextFor?.(run as never, index)) });
        if (calls.length === failOnCall) throw new Error('broker went away');
        return { topic: 't', count: list.length, runIds: [], requests: 1, partitions: [] };
      },
      publishFeedback: async () => {
        throw new Error('produce publishes runs only');
      },
      close: async () => {},
    };
    return { publisher, calls };
  };

  it('publishes every batch in order with its contexts', async () => {
    const { publisher, calls } = stubPublisher();
    const contexts = [ROOT_CONTEXT, ROOT_CONTEXT];
    const outcome = await publishAll(publisher, batches({ runs: runs('a', 'b'), contexts }, { runs: runs('c') }), undefined, new AbortController().signal, 3);
    expect(outcome).toMatchObject({ sent: 3 });
    expect(outcome.error).toBeUndefined();
    expect(calls.map((call) => call.runs.length)).toEqual([2, 1]);
    expect(calls[0]!.contexts).toEqual(contexts);
    expect(calls[1]!.contexts).toEqual([undefined]);
  });

  it('stops at the first failed publish and reports what was sent before it', async () => {
    const { publisher, calls } = stubPublisher(2);
    const outcome = await publishAll(publisher, batches({ runs: runs('a') }, { runs: runs('b') }, { runs: runs('c') }, { runs: runs('d') }), undefined, new AbortController().signal, undefined);
    expect(outcome.sent).toBe(1);
    expect((outcome.error as Error).message).toBe('broker went away');
    expect(calls.length).toBeLessThanOrEqual(3);
  });

  it('reports a source that fails while reading', async () => {
    const { publisher } = stubPublisher();
    async function* failing(): AsyncGenerator<Batch> {
      yield { runs: runs('a') };
      throw new Error('disk error');
    }
    const outcome = await publishAll(publisher, failing(), undefined, new AbortController().signal, undefined);
    expect(outcome).toMatchObject({ sent: 1, error: expect.objectContaining({ message: 'disk error' }) });
  });

  it('stops when interrupted', async () => {
    const { publisher, calls } = stubPublisher();
    const interrupt = new AbortController();
    interrupt.abort();
    expect(await publishAll(publisher, batches({ runs: runs('a') }), undefined, interrupt.signal, undefined)).toMatchObject({ sent: 0 });
    expect(calls).toHaveLength(0);
  });
});
