// Sample catalogue: a research assistant and a coding assistant.
import type { AgentProfile } from './scenario-types.ts';

export const researchAgent: AgentProfile = {
  entity: { type: 'agent', id: 'research-agent', name: 'Research Assistant', version: '1.9.0' },
  instructions: 'You are a research assistant. Search before answering, cite your sources by title, and separate facts from estimates.',
  models: [{ modelId: 'gpt-4.1', provider: 'openai' }, { modelId: 'claude-sonnet-4-5', provider: 'anthropic' }],
  tags: ['research', 'internal'],
  memoryNotes: ['The user writes a newsletter about energy.', 'The user prefers sources from the last two years.'],
  scenarios: [
    {
      id: 'solar-efficiency',
      question: 'How efficient are current commercial solar panels, and what limits them?',
      history: [['I am writing about renewable energy.', 'Great topic. What would you like to cover first?']],
      tools: [
        { toolName: 'webSearch', args: { query: 'commercial solar panel efficiency 2025' }, result: { hits: [{ title: 'NREL module efficiency chart', url: 'https://example.org/nrel' }] }, failure: 'search API quota exceeded' },
        { toolName: 'fetchPage', args: { url: 'https://example.org/nrel' }, result: { text: 'Commercial silicon modules reach 22-24% efficiency; the Shockley-Queisser limit for single junction cells is about 33%.' }, failure: 'page fetch timed out' },
      ],
      wrongTool: { toolName: 'fetchPage', args: { url: 'https://example.org/wind' }, result: { text: 'Wind turbines...' }, failure: 'page fetch timed out' },
      answers: {
        complete: 'Commercial silicon solar panels now reach about 22-24% efficiency (NREL module efficiency chart). They are limited by the Shockley-Queisser limit of roughly 33% for single-junction cells, plus heat, reflection and resistive losses. Tandem perovskite cells aim past that limit.',
        partial: 'Most solar panels are around 20% efficient.',
        offTopic: 'Solar energy has been used since ancient times to dry food.',
      },
      keyTerms: ['22-24%', 'silicon', 'Shockley-Queisser', '33%', 'heat', 'perovskite'],
      reasoning: 'Give the current range with a source, then explain the theoretical limit and practical losses.',
    },
    {
      id: 'kafka-history',
      question: 'Who created Apache Kafka and why was it built?',
      history: [],
      tools: [{ toolName: 'webSearch', args: { query: 'Apache Kafka origin LinkedIn' }, result: { hits: [{ title: 'Kafka: a distributed messaging system for log processing', year: 2011 }] }, failure: 'search API quota exceeded' }],
      wrongTool: { toolName: 'summarize', args: { text: 'Franz Kafka biography' }, result: { summary: 'A novelist from Prague.' }, failure: 'summarizer overloaded' },
      answers: {
        complete: 'Apache Kafka was created at LinkedIn by Jay Kreps, Neha Narkhede and Jun Rao around 2010 to handle high-volume activity and log data as a distributed commit log. It was open-sourced in 2011 and became an Apache top-level project in 2012.',
        partial: 'Kafka was built at LinkedIn for handling logs.',
        offTopic: 'Franz Kafka wrote The Metamorphosis in 1912.',
      },
      keyTerms: ['LinkedIn', 'Jay Kreps', 'Neha Narkhede', 'Jun Rao', 'commit log', '2011'],
      reasoning: 'The user means the software, not the writer; name the creators and the motivation.',
    },
  ],
};

export const codingAssistant: AgentProfile = {
  entity: { type: 'agent', id: 'coding-assistant', name: 'Coding Assistant', version: '0.12.3' },
  instructions: 'You help developers with their repository. Read the code before changing it, run the tests after, and explain every change.',
  models: [{ modelId: 'claude-sonnet-4-5', provider: 'anthropic' }, { modelId: 'qwen3-coder', provider: 'ollama' }],
  tags: ['coding', 'developer-tools'],
  memoryNotes: ['The repository uses TypeScript and vitest.', 'The team prefers small pull requests.'],
  scenarios: [
    {
      id: 'failing-test',
      question: 'The test "parses ISO dates" in src/date.test.ts fails since yesterday. Can you fix it?',
      history: [['Our CI is red.', 'Let us find the failing test first. Which one fails?']],
      tools: [
        { toolName: 'runTests', args: { pattern: 'src/date.test.ts' }, result: { failed: 1, message: 'expected 2025-03-01T00:00:00.000Z, received 2025-02-28T23:00:00.000Z' }, failure: 'test runner crashed: out of memory' },
        { toolName: 'readFile', args: { path: 'src/date.ts' }, result: { content: 'export const parse = (text) => new Date(text + " 00:00")' }, failure: 'file not found' },
        { toolName: 'applyPatch', args: { path: 'src/date.ts', diff: '- new Date(text + " 00:00")\n+ new Date(text + "T00:00:00Z")' }, result: { applied: true }, failure: 'patch does not apply cleanly' },
      ],
      wrongTool: { toolName: 'searchCode', args: { query: 'Date' }, result: { matches: 214 }, failure: 'search timed out' },
      answers: {
        complete: 'The test failed because parse() built a local-time date, so the result shifted by the timezone offset. I changed src/date.ts to parse the date as UTC ("T00:00:00Z"); the test now passes. Local-time parsing was the root cause.',
        partial: 'I changed the date parsing in src/date.ts; please run the tests again.',
        offTopic: 'Dates are tricky in JavaScript; consider a library.',
      },
      keyTerms: ['timezone', 'UTC', 'src/date.ts', 'local', 'test passes', 'root cause'],
      reasoning: 'An off-by-one-hour result means local time; parse as UTC and rerun the test.',
    },
    {
      id: 'add-pagination',
      question: 'Add cursor pagination to the GET /orders endpoint.',
      history: [],
      tools: [
        { toolName: 'searchCode', args: { query: 'GET /orders' }, result: { matches: [{ path: 'src/routes/orders.ts', line: 12 }] }, failure: 'search timed out' },
        { toolName: 'readFile', args: { path: 'src/routes/orders.ts' }, result: { content: 'router.get("/orders", async () => db.orders.findAll())' }, failure: 'file not found' },
        { toolName: 'applyPatch', args: { path: 'src/routes/orders.ts', diff: '+ cursor, limit (max 100), nextCursor' }, result: { applied: true }, failure: 'patch does not apply cleanly' },
        { toolName: 'runTests', args: { pattern: 'orders' }, result: { failed: 0, passed: 14 }, failure: 'test runner crashed' },
      ],
      wrongTool: { toolName: 'runTests', args: { pattern: 'users' }, result: { failed: 0, passed: 9 }, failure: 'test runner crashed' },
      answers: {
        complete: 'GET /orders now takes `cursor` and `limit` (default 20, max 100) query parameters and returns `nextCursor`, ordered by id so pages are stable. The change is in src/routes/orders.ts and all 14 orders tests pass.',
        partial: 'I added a limit parameter to GET /orders.',
        offTopic: 'REST APIs should use nouns for resources.',
      },
      keyTerms: ['cursor', 'limit', 'nextCursor', 'max 100', 'src/routes/orders.ts', 'tests pass'],
      reasoning: 'Find the route, add cursor and limit with a stable ordering, then run the tests.',
    },
  ],
};
