// The infrastructure's timing and sizing defaults, in one place (as pino keeps `defaultOptions`):
// what the consumer, the publishers, the sinks, the topic set-up, the pre-flight and the readiness probe use when
// nobody says otherwise. Not configuration a deployment sets (that is src/engine/config/defaults.ts);
// tests and benchmarks shorten some of these through the options of the function that uses them.
export const KAFKA_DEFAULTS = Object.freeze({
  consumer: Object.freeze({
    /** A member that sends no heartbeat for this long is evicted; the consumer heartbeats while it waits for run slots. */
    sessionTimeoutMs: 30_000,
    heartbeatIntervalMs: 3_000,
    /** How often a message waiting for a run slot heartbeats (consumers/run-slots.ts): well inside heartbeatIntervalMs. */
    slotWaitHeartbeatMs: 1_000,
    /** kafkajs' retries of a failed fetch or join before the consumer crashes (and restarts). */
    retries: 10,
    /** Fetch at least this per partition, and always one message of maxMessageBytes. */
    minBytesPerPartition: 1_048_576,
    /** Partitions whose batches are dispatched at once (at most runsInFlight). */
    partitionsConsumedConcurrently: 16,
    /** How often finished prefixes are committed. */
    commitIntervalMs: 1_000,
  }),
  publish: Object.freeze({
    /** The pause after a transient publish failure; doubled after each further one, up to maxRetryDelayMs. */
    firstRetryDelayMs: 200,
    maxRetryDelayMs: 10_000,
    /** How long the first record of a request waits for company when nothing is in flight. */
    lingerMs: 2,
    maxBatchRecords: 1_000,
    /** A request's bytes at most (a larger record goes alone): within a broker's default 1 MiB batch limit. */
    maxRequestBytes: 1_000_000,
    /** Bound on waiting for the at-least-once publisher's stragglers at close. */
    flushTimeoutMs: 5_000,
  }),
  transactions: Object.freeze({
    /** How long the broker lets a transaction stay open before aborting it itself. */
    transactionTimeoutMs: 30_000,
    /** Bound on the final transactions at close. */
    closeTimeoutMs: 10_000,
    /** A transactional producer's retries (about 10 s in all; kafkajs-transport.ts says why). */
    retry: Object.freeze({ retries: 10, initialRetryTime: 10, maxRetryTime: 5_000 }),
  }),
  kafkajs: Object.freeze({
    /**
     * kafkajs logs in again on a live connection this long before the session the broker granted
     * ends (a token's lifetime, or connections.max.reauth.ms), and Kafka refuses that SaslHandshake
     * (ILLEGAL_SASL_STATE, measured against Kafka 4), which fails the request. Far below zero, it
     * never tries: the broker closes the connection when the session ends and kafkajs' retry
     * reconnects with a full login — a fresh token. No effect where sessions do not end.
     */
    reauthenticationThresholdMs: -(2 ** 31),
  }),
  platformatic: Object.freeze({
    /**
     * How long the group consumer's fetch waits at the broker when none of its partitions has
     * anything: what a partition resumed (a retry now due, a slot free) may wait for the fetch of
     * the idle ones to return (Kafka's own consumer waits 500 ms too).
     */
    fetchMaxWaitMs: 500,
    /**
     * The wait instead while a partition of the same broker is with its handler: it is fetched
     * again only after that fetch returns, so a hot partition beside idle ones is not held back by
     * a long wait on theirs (range-fetch-loop.ts).
     */
    busyFetchMaxWaitMs: 20,
    /** The client's pause between retries of a failed request, and the first pause before a failed consumer restarts (doubling). */
    retryDelayMs: 250,
    maxRestartDelayMs: 5_000,
    /** The record producer's retries of a failed request before its records fail (publish-until-acknowledged.ts retries them). */
    publishRetries: 5,
  }),
  topics: Object.freeze({
    /** Partitions of an output topic the service creates. */
    partitions: 6,
    /** How long a created topic (or a restarted broker) may take to show a leader for every partition. */
    leaderWaitMs: 30_000,
    leaderPollMs: 100,
    /** The pauses between tries of a request while leaders settle (src/kit/backoff.ts): short first, a new topic's leaders take ms. */
    leaderRetry: Object.freeze({ firstDelayMs: 50, maxDelayMs: 1_000 }),
  }),
  preflight: Object.freeze({
    /** The pre-flight's own clients give up soon: a refusal should be reported, not retried. */
    retry: Object.freeze({ retries: 2, initialRetryTime: 200 }),
    /**
     * A request's longest wait for its answer, and its retries: a broker that accepts connections and
     * never answers is reported in about 40 s (retried inside and around the connection's handshake: 2 × 2 × 10 s).
     */
    requestTimeoutMs: 10_000,
    requestRetries: 1,
    tlsProbeTimeoutMs: 5_000,
  }),
  brokerProbe: Object.freeze({
    /** The readiness probe's admin client does not retry: a probe answers in bounded time, and the next one asks again. */
    retry: Object.freeze({ retries: 0 }),
    /** How long a broker check's result is reused: probes of several kubelets add up to one request a second at most. */
    cacheMs: 1_000,
    /** A check that takes longer counts as unreachable. */
    timeoutMs: 2_000,
  }),
  replay: Object.freeze({
    /** How often a replay reads its committed offsets for progress and the end. */
    pollIntervalMs: 500,
  }),
  groupLessReads: Object.freeze({
    /**
     * How long a group-less fetch (read-range.ts) waits at the broker when there is nothing to
     * read: a following read's poll, and what a read pays to learn that a partition's tail is a
     * gap compaction left. Short, so that stop() is prompt.
     */
    fetchMaxWaitMs: 500,
    /** A fetch brings at most this per partition (the broker still sends a first record batch that is larger); a read holds one fetch per partition at most. */
    maxBytesPerPartition: 1_048_576,
    /** The client's own retries of a failed request before the reader's backoff takes over. */
    clientRetries: 2,
    /** The reader's pause after a retriable failure (a leader moving, a broker restarting), doubled after each further one. */
    retryDelayMs: 250,
    maxRetryDelayMs: 5_000,
    /** fetchAt (fetch-at.ts) gives up after this long: the caller reads again later. */
    fetchAtTimeoutMs: 60_000,
    /** A thread partition's restore (read-changelog-partition.ts) gives up after this long; the thread source tries again. */
    restoreTimeoutMs: 120_000,
    /** The thread source's pause before it tries a failed restore again (consumers/thread-source.ts), doubled after each further failure. */
    restoreRetry: Object.freeze({ firstDelayMs: 2_000, maxDelayMs: 30_000 }),
  }),
});
