// Paced sample traffic for the demo: `rate` runs per second in small batches (ten a second),
// until `count` runs were sent or stop() is called. Publishing errors are counted, not thrown:
// the demo keeps going while a broker hiccups.

export type SampleTraffic = { readonly sent: number; readonly failed: number; stop(): Promise<void> };

export function startSampleTraffic(options: {
  rate: number;
  count: number;
  publish: (batchSize: number) => Promise<void>;
  onError?: (error: unknown) => void;
}): SampleTraffic {
  const tickMs = 100;
  let sent = 0;
  let failed = 0;
  let owed = 0;
  let stopped = false;
  let inFlight: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    if (stopped) return;
    owed += (options.rate * tickMs) / 1000;
    const batchSize = Math.min(Math.floor(owed), options.count - sent - failed);
    if (batchSize <= 0) {
      if (sent + failed >= options.count) clearInterval(timer);
      return;
    }
    owed -= batchSize;
    inFlight = inFlight.then(() =>
      options.publish(batchSize).then(
        () => void (sent += batchSize),
        (error: unknown) => {
          failed += batchSize;
          options.onError?.(error);
        },
      ),
    );
  }, tickMs);
  return {
    get sent() {
      return sent;
    },
    get failed() {
      return failed;
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await inFlight;
    },
  };
}
