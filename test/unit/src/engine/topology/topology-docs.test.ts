// docs/architecture.md prints the topology as a table (the topics a deployment with every feature
// on touches, by their default names); this holds the table to topologyOf, so the page cannot
// drift from the code: every entry listed once, with its kind, partition rule, cleanup policy and
// consuming task.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { topicsSchema } from '../../../../../src/engine/config/config-schema.ts';
import { topologyOf } from '../../../../../src/engine/topology/topology.ts';
import type { PartitionRule, TopicEntry } from '../../../../../src/engine/topology/topic-entry.ts';

type Row = { topic: string; id: string; kind: string; partitions: string; cleanup: string; task: string };

function tableRows(): Row[] {
  const page = readFileSync(new URL('../../../../../docs/architecture.md', import.meta.url), 'utf8');
  const section = page.slice(page.indexOf('## The topology'), page.indexOf('## The Kafka edge'));
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const cells = line.split('|').slice(1, -1).map((cell) => cell.trim());
      const [topic, id, kind, , partitions, cleanup, task] = cells;
      return { topic: topic!, id: id!.replaceAll('`', ''), kind: kind!, partitions: partitions!, cleanup: cleanup!, task: task! };
    });
}

function partitionsCell(rule: PartitionRule): string {
  switch (rule.rule) {
    case 'agents':
      return "the agents'";
    case 'default':
      return 'default';
    case 'one':
      return 'one';
    case 'like':
      return `like \`${rule.topic}\``;
  }
}

function topicCell(entry: TopicEntry): string {
  if (entry.id === 'retry-tier') return '`agent-runs-retry-<delay>`';
  if (entry.id === 'decisions') return '`topics.decisions` (when set)';
  return `\`${entry.name}\``;
}

it('docs/architecture.md prints every entry of the topology, as topologyOf has it', () => {
  const names = topicsSchema.parse({ runs: 'agent-runs', deadLetter: 'agent-runs-dlq', decisions: 'agent-decisions' });
  const topology = topologyOf({ topics: names, retries: { enabled: true, delaysMs: [5_000] }, threads: true, rescore: true, rescoreRequests: true, batch: true });
  const rows = tableRows();
  expect(rows.map((row) => row.id).sort()).toEqual(topology.entries.map((entry) => entry.id).sort());
  for (const entry of topology.entries) {
    const row = rows.find((candidate) => candidate.id === entry.id)!;
    expect({ topic: row.topic, kind: row.kind, partitions: row.partitions, cleanup: row.cleanup, task: row.task.split(' ')[0] }, entry.id).toEqual({
      topic: topicCell(entry),
      kind: entry.kind,
      partitions: partitionsCell(entry.partitions),
      cleanup: entry.cleanup,
      task: entry.task === undefined ? '—' : `\`${entry.task}\``,
    });
  }
});
