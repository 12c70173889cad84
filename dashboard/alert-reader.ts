// Feeds the dashboard's AlertFeed from the alerts topic, from its beginning (notices are few, and
// a monitor's state is its last notice however old), group-less. A missing topic (no monitor has
// run yet) is a warning, not an error: the page then shows no monitors.
import { parseAlertRecord } from '../src/kit/contracts/parse.ts';
import type { KafkaEdge } from '../kafka/kafka-edge.ts';
import { startTopicReader } from '../service/monitor/topic-reader.ts';
import type { TopicReader } from '../service/monitor/topic-reader.ts';
import type { AlertFeed } from './alert-feed.ts';

export async function startAlertReader(options: { edge: Pick<KafkaEdge, 'readRange' | 'admin'>; topic: string; feed: AlertFeed; onWarning?: (message: string) => void }): Promise<TopicReader | undefined> {
  const exists = (await options.edge.admin.listTopics()).includes(options.topic);
  if (!exists) {
    options.onWarning?.(`topic '${options.topic}' does not exist (yet): no monitor has published there; restart the dashboard once \`scorestream monitor\` runs`);
    return undefined;
  }
  return startTopicReader({
    edge: options.edge,
    topic: options.topic,
    from: 'beginning',
    onMessage: (message) => {
      if (message.value === null) return;
      let value: unknown;
      try {
        value = JSON.parse(message.value.toString('utf8'));
      } catch {
        return;
      }
      const parsed = parseAlertRecord(value);
      if (parsed.success) options.feed.ingest(parsed.data);
    },
    onError: (error) => options.onWarning?.(`the dashboard's reader of ${options.topic} failed: ${error instanceof Error ? error.message : String(error)}`),
  });
}
