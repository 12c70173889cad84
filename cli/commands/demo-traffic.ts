// The demo's sample traffic (`scorestream demo`): runs from the seeded sample generator at the
// chosen rate, published as run events with a share of people's feedback, or, on the OTLP path,
// run by the instrumented agent app; one agent degrades in episodes so the monitors have
// something to fire on (docs/alerts.md).
import type { Logger } from 'pino';
import { kafkaClientSecurity } from '../../kafka/kafka-security.ts';
import { createRunPublisher } from '../../producers/run-publisher.ts';
import type { RunPublisher } from '../../producers/run-publisher.ts';
import { createSampleFeedback, createSampleRunGenerator, sampleRunContext } from '../../producers/sample/index.ts';
import type { ResolvedConfig } from '../../src/engine/config/resolve-config.ts';
import { startSampleTraffic } from '../sample-traffic.ts';
import type { SampleTraffic } from '../sample-traffic.ts';
import type { OtlpPath } from './demo-otlp-path.ts';

/** The sample traffic's degradation episodes repeat this often. */
const DEGRADE_EVERY_MS = 300_000;

export type DemoTrafficOptions = { rate: number; count: number; degradeAfterMs: number | undefined; degradeForMs: number };

/** The sample traffic: published as run events with feedback, or, with --otlp, run by the instrumented agent app. */
export function startDemoTraffic(
  { rate, count, degradeAfterMs, degradeForMs }: DemoTrafficOptions,
  { config, brokers, otlp, logger }: { config: ResolvedConfig; brokers: string[]; otlp: OtlpPath | undefined; logger: Logger },
): { publisher: RunPublisher | undefined; traffic: SampleTraffic } {
  const publisher = otlp === undefined ? createRunPublisher({ brokers, topic: config.topics.runs, feedbackTopic: config.topics.feedback, clientId: 'scorestream-demo-traffic', ...kafkaClientSecurity(config.kafka) }) : undefined;
  const startedAt = Date.now();
  const seed = startedAt;
  const generator = createSampleRunGenerator({
    seed,
    ...(degradeAfterMs === undefined ? {} : { degradation: { agentId: 'support-agent', startsAt: startedAt + degradeAfterMs, durationMs: degradeForMs, everyMs: DEGRADE_EVERY_MS } }),
  });
  if (degradeAfterMs !== undefined) logger.info({ agentId: 'support-agent', startsAt: new Date(startedAt + degradeAfterMs).toISOString(), durationMs: degradeForMs, everyMs: DEGRADE_EVERY_MS }, 'the sample traffic degrades support-agent');
  // A share of the runs gets a person's thumbs, published right after the runs (before their
  // scores exist: the join waits for them). Not on the OTLP path, whose runs the Collector names.
  // The person reacts to the answer as given, so a degraded answer draws worse feedback too.
  const feedbackFor = createSampleFeedback({ seed });
  const traffic = startSampleTraffic({
    rate,
    count,
    publish: async (batchSize) => {
      const samples = Array.from({ length: batchSize }, () => generator.next());
      if (publisher === undefined) {
        await Promise.all(samples.map((sample) => otlp!.app.run(sample.event)));
        return;
      }
      const contexts = new Map(samples.map((sample) => [sample.event, sampleRunContext(sample)]));
      await publisher.publish(
        samples.map((sample) => sample.event),
        { contextFor: (run) => contexts.get(run as never) },
      );
      const feedback = samples.map(feedbackFor).filter((record) => record !== undefined);
      if (feedback.length > 0) await publisher.publishFeedback(feedback);
    },
    onError: (error) => logger.error({ err: error }, 'publishing sample traffic failed'),
  });
  return { publisher, traffic };
}
