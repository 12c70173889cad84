// The thumbs example (examples/feedback-handler.ts) run as its README says, as a program against
// a real broker: a click becomes a FeedbackRecord on the feedback topic, the same user voting again
// keeps the same feedbackId, and bad requests are answered without publishing anything.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { decodeFeedbackRecord } from '../../../src/kit/contracts/parse.ts';
import { readMessages, testBrokers, useTopic } from '../../helpers/kafka.ts';

const example = fileURLToPath(new URL('../../../examples/feedback-handler.ts', import.meta.url));

async function startExample(feedbackTopic: string): Promise<string> {
  const child = spawn(process.execPath, ['--conditions=scorestream-source', example], {
    env: { ...process.env, KAFKA_BROKERS: testBrokers().join(','), SCORESTREAM_TOPIC_FEEDBACK: feedbackTopic, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  onTestFinished(() => new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : (child.once('exit', () => resolve()), child.kill('SIGTERM')))));
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /on (http:\/\/\S+\/feedback)/.exec(output);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`the example exited (${code}):\n${output}`)));
  });
}

const post = (url: string, body: unknown, user?: string) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...(user === undefined ? {} : { 'x-user-id': user }) }, body: typeof body === 'string' ? body : JSON.stringify(body) });

describe('the thumbs feedback example', () => {
  it('publishes a click as feedback keyed by the run, one id per user and run', async () => {
    const topic = await useTopic({ prefix: 'feedback' });
    const url = await startExample(topic);
    const up = await post(url, { runId: 'run-7', thumbs: 'up' }, 'user-1');
    expect(up.status).toBe(202);
    const { feedbackId } = (await up.json()) as { feedbackId: string };
    const down = await post(url, { runId: 'run-7', thumbs: 'down', comment: 'wrong order number' }, 'user-1');
    expect(await down.json()).toEqual({ feedbackId });
    expect((await post(url, { runId: 'run-7', thumbs: 'up' }, 'user-2')).status).toBe(202);

    const messages = await readMessages(topic, { count: 3 });
    const records = messages.map((message) => {
      const decoded = decodeFeedbackRecord(message.value);
      if (!decoded.success) throw new Error(decoded.message);
      expect(message.key!.toString()).toBe('run-7');
      return decoded.data;
    });
    expect(records.map((record) => [record.feedbackId === feedbackId, record.value, record.submitter?.id, record.comment])).toEqual([
      [true, true, 'user-1', undefined],
      [true, false, 'user-1', 'wrong order number'],
      [false, true, 'user-2', undefined],
    ]);
    expect(records[0]).toMatchObject({ target: { type: 'run', runId: 'run-7' }, source: 'end_user', name: 'thumbs' });
  });

  it('answers bad requests with what is wrong and publishes nothing for them', async () => {
    const topic = await useTopic({ prefix: 'feedback' });
    const url = await startExample(topic);
    expect((await post(url, 'not json')).status).toBe(400);
    expect(await (await post(url, { runId: 'run-1', thumbs: 'sideways' })).json()).toEqual({ error: 'thumbs must be "up" or "down"' });
    const noRun = await post(url, { thumbs: 'up' });
    expect(noRun.status).toBe(400);
    expect(await noRun.json()).toMatchObject({ error: 'invalid feedback', problems: [{ path: 'target.runId' }] });
    expect((await post(url, { runId: 'run-1', thumbs: 'up', comment: 'x'.repeat(20_000) })).status).toBe(413);
    expect((await fetch(url.replace('/feedback', '/other'))).status).toBe(404);
    // Only the valid click that follows lands, at offset 0.
    expect((await post(url, { runId: 'run-1', thumbs: 'up' })).status).toBe(202);
    const [only] = await readMessages(topic, { count: 1 });
    expect(only!.offset).toBe('0');
  });
});
