// The Collector release the project builds (recipe/go.mod pins the modules: otelcol, otlpreceiver
// and batchprocessor at this version, contrib kafkaexporter at v0.165.1).
export const COLLECTOR_VERSION = '0.165.0';
