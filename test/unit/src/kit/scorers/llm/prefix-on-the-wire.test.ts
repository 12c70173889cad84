// The built-in judges' prompts as a provider receives them (docs/spend-and-replay.md, prompts laid
// out for caches): every built-in LLM judge scores two different runs through the real
// OpenAI-compatible provider against the fault-injecting judge server, and for each of its steps
// the bytes the server received are the same from the start through the prompt's fixed part —
// the output schema, the instructions and the user turn's first part, which holds nothing of
// either run — so a provider's prefix cache can serve them; the runs' material comes after
// (in every step that quotes the run; a reason step may quote only the judge's own verdicts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAICompatibleJudgeProvider } from '../../../../../../src/kit/judge/openai-compatible.ts';
import { builtInScorers } from '../../../../../../src/kit/scorers/registry.ts';
import { renderedPrompt, startFaultJudgeServer } from '../../../../../helpers/fault-judge-server.ts';
import type { FaultJudgeServer, OpenAIRequestBody } from '../../../../../helpers/fault-judge-server.ts';
import { agentTurn, assistantMessage, toolCall } from '../agent-runs.ts';
import { threadRun } from '../thread-runs.ts';

let server: FaultJudgeServer;
beforeAll(async () => {
  server = await startFaultJudgeServer('ok');
});
afterAll(async () => {
  await server.close();
});

/** Two runs that share no text: each marker shows up only where its run's material is. */
const runsFor = (level: 'run' | 'thread') =>
  (['ALPHA', 'OMEGA'] as const).map((marker) =>
    level === 'thread'
      ? { marker, run: threadRun([{ question: `${marker} where is my parcel?`, answer: `${marker} it left the depot.` }, { question: `${marker} and when does it arrive?`, answer: `${marker} on Monday.` }]) }
      : {
          marker,
          run: {
            ...agentTurn(`${marker} what is the status of order 7?`, [assistantMessage(`${marker} order 7 shipped yesterday.`, [toolCall('lookupOrder', { args: { id: `${marker}-7` }, result: { status: `${marker} shipped` } })])]),
            tools: [{ name: 'lookupOrder', description: 'Looks an order up' }],
          },
        },
  );

type Message = { role: string; content: string | { type: string; text: string }[] };

describe("built-in judges' prompts on the wire", () => {
  it.each(builtInScorers.filter((entry) => entry.kind === 'llm').map((entry) => [entry.id, entry] as const))('%s: every step sends the same bytes through its fixed part on every run', async (_id, entry) => {
    const provider = createOpenAICompatibleJudgeProvider({ baseURL: server.baseURL });
    const scorer = entry.factory({ model: provider.languageModel('judge-7b') } as never);
    const runs = runsFor(entry.level);
    const bodiesOf = new Map<string, OpenAIRequestBody[]>();
    for (const { marker, run } of runs) {
      const first = server.bodies.length;
      // The mock answers the schema's smallest instance, which a judge may find unusable: the requests were made all the same.
      await scorer.run(run as never).catch(() => undefined);
      bodiesOf.set(marker, server.bodies.slice(first));
    }
    const [alpha, omega] = [bodiesOf.get('ALPHA')!, bodiesOf.get('OMEGA')!];
    expect(alpha.length).toBeGreaterThan(0);
    expect(omega.length).toBe(alpha.length);
    let materialShown = 0;
    alpha.forEach((body, index) => {
      const other = omega[index]!;
      const user = (body.messages as Message[]).find((message) => message.role === 'user')!.content;
      expect(Array.isArray(user), 'the user turn is sent as the fixed part, then the rest').toBe(true);
      const fixed = (user as { text: string }[])[0]!.text;
      expect(fixed).not.toContain('ALPHA');
      expect(fixed.length).toBeGreaterThan(200);
      const [mine, theirs] = [renderedPrompt(body), renderedPrompt(other)];
      // Through the end of the fixed part (as JSON in the request), the two requests are the same bytes.
      const end = mine.indexOf(JSON.stringify(fixed)) + JSON.stringify(fixed).length;
      expect(end).toBeGreaterThan(JSON.stringify(fixed).length);
      expect(theirs.slice(0, end)).toBe(mine.slice(0, end));
      // A reason step's material may be the judge's own verdicts only; the run's text is after the fixed part wherever it is sent.
      expect(mine.slice(0, end)).not.toContain('ALPHA');
      if (mine.slice(end).includes('ALPHA') && theirs.slice(end).includes('OMEGA')) materialShown += 1;
    });
    expect(materialShown).toBeGreaterThan(0);
  });
});
