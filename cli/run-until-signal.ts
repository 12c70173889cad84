// Keeps a started service running until SIGTERM or SIGINT, then stops it gracefully. A second
// signal exits at once, which is safe: the record sinks commit an offset only after its records
// were accepted (docs/delivery.md, graceful shutdown). A consumer crash exits non-zero for the
// supervisor; a crash because Kafka refused access (a missing ACL) exits 2, a configuration problem.
import type { Logger } from 'pino';
import type { RunningService } from '../service/start-service.ts';
import { KafkaAccessError } from '../kafka/kafka-access-error.ts';
import { flushLogger } from '../otel/logger.ts';

export async function runUntilSignal(service: RunningService, logger: Logger, onStop?: () => void): Promise<number> {
  return new Promise<number>((resolve) => {
    let stopping = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (stopping) {
        logger.warn({ signal }, 'second signal: exiting now; unfinished runs will be re-scored after restart');
        process.exit(130);
      }
      stopping = true;
      onStop?.();
      logger.info({ signal }, 'stopping: finishing in-flight runs (send the signal again to exit at once)');
      service.stop().then(
        () => resolve(0),
        (error: unknown) => {
          logger.error({ err: error }, 'graceful shutdown failed');
          resolve(1);
        },
      );
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
    void service.crashed.then((error) => {
      if (stopping) return;
      if (KafkaAccessError.isInstance(error)) {
        // Not something a restart fixes: a configuration problem, exit 2 like any other.
        logger.fatal({ err: { type: error.name, reason: error.reason } }, error.message);
        stopping = true;
        // Close what can be closed (bounded: a consumer refused its topic may never disconnect
        // cleanly), exit 2, and make sure the process ends even when kafkajs still holds sockets.
        // What to fix is printed last, after the stop's own lines.
        const bounded = new Promise((done) => setTimeout(done, 5_000).unref());
        void Promise.race([service.stop({ timeoutMs: 2_000 }).catch(() => undefined), bounded])
          .then(() => flushLogger(logger))
          .then(() => {
            console.error(`scorestream: ${error.message}`);
            resolve(2);
            setTimeout(() => process.exit(2), 3_000).unref();
          });
        return;
      }
      logger.fatal({ err: error }, 'the Kafka consumer crashed and will not restart; exiting so the supervisor restarts the service');
      resolve(1);
    });
  });
}
