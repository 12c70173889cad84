// An example HTTP endpoint behind a chat UI's thumbs buttons — copy it into your app server. The
// page posts `{ "runId": "...", "thumbs": "up" | "down", "comment"?: "..." }` to /feedback; the
// handler turns it into a FeedbackRecord and publishes it with the run publisher your agent
// already uses (docs/feedback.md). The same user voting again on the same run replaces their vote:
// feedbackIdFor gives one id per (run, name, source, user).
//
//   const publisher = createRunPublisher({ brokers: ['127.0.0.1:9092'] });
//   createServer(thumbsHandler({ publisher, userOf: (request) => sessionUser(request) })).listen(3000);
//
// Run as a program, it serves just that endpoint on PORT (default 3000), publishing to
// KAFKA_BROKERS and SCORESTREAM_TOPIC_FEEDBACK (default agent-feedback), and takes the user from
// an `x-user-id` header — stand-in for your session. From a clone:
//   KAFKA_BROKERS=127.0.0.1:9092 node --conditions=scorestream-source examples/feedback-handler.ts
import { createServer } from 'node:http';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRunPublisher, feedbackIdFor, InvalidFeedbackError } from 'scorestream/producer';
import type { FeedbackRecordInput, RunPublisher } from 'scorestream/producer';

export type ThumbsHandlerOptions = {
  publisher: Pick<RunPublisher, 'publishFeedback'>;
  /** Who is signed in (your session or auth); undefined: anonymous. */
  userOf: (request: IncomingMessage) => string | undefined;
  now?: () => Date;
  /** Larger bodies are refused (413). */
  maxBodyBytes?: number;
};

export function thumbsHandler(options: ThumbsHandlerOptions): RequestListener {
  const maxBodyBytes = options.maxBodyBytes ?? 16 * 1024;
  return (request, response) => {
    if (request.method !== 'POST' || request.url !== '/feedback') return reply(response, 404, { error: 'POST /feedback' });
    void readJson(request, maxBodyBytes).then(async (body) => {
      if (body === tooLarge) return reply(response, 413, { error: `the body is larger than ${maxBodyBytes} bytes` });
      if (body === undefined) return reply(response, 400, { error: 'expected a JSON body' });
      const { runId, thumbs, comment } = body as { runId?: unknown; thumbs?: unknown; comment?: unknown };
      if (thumbs !== 'up' && thumbs !== 'down') return reply(response, 400, { error: 'thumbs must be "up" or "down"' });
      const user = options.userOf(request);
      const target = { type: 'run' as const, runId: String(runId ?? '') };
      const feedback: FeedbackRecordInput = {
        schemaVersion: 1,
        feedbackId: feedbackIdFor({ target, name: 'thumbs', source: 'end_user', submitterId: user }),
        target,
        source: 'end_user',
        ...(user === undefined ? {} : { submitter: { id: user } }),
        name: 'thumbs',
        value: thumbs === 'up',
        ...(typeof comment === 'string' && comment.trim() !== '' ? { comment } : {}),
        submittedAt: (options.now ?? (() => new Date()))().toISOString(),
      };
      try {
        const report = await options.publisher.publishFeedback(feedback);
        reply(response, 202, { feedbackId: report.feedbackIds[0] });
      } catch (error) {
        // A bad run id or comment is the caller's to fix; anything else (Kafka down) is ours.
        if (InvalidFeedbackError.isInstance(error)) reply(response, 400, { error: 'invalid feedback', problems: error.problems });
        else reply(response, 503, { error: 'feedback could not be recorded; try again' });
      }
    });
  };
}

const tooLarge = Symbol('too large');

async function readJson(request: IncomingMessage, maxBytes: number): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) return tooLarge;
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}

function reply(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
}

if (import.meta.main) {
  const brokers = (process.env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(',');
  const publisher = createRunPublisher({ brokers, feedbackTopic: process.env.SCORESTREAM_TOPIC_FEEDBACK ?? 'agent-feedback' });
  const userOf = (request: IncomingMessage) => {
    const user = request.headers['x-user-id'];
    return typeof user === 'string' && user !== '' ? user : undefined;
  };
  const server = createServer(thumbsHandler({ publisher, userOf })).listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
    console.log(`thumbs feedback on http://127.0.0.1:${(server.address() as AddressInfo).port}/feedback`);
  });
  process.once('SIGTERM', () => server.close(() => void publisher.close()));
}
