// The Prometheus and Alertmanager releases whose tools the project builds and tests its rules and
// routing example with. recipe/go.mod pins github.com/prometheus/prometheus at Prometheus 3.16.0's
// Go module version (v0.316.0); alertmanager-recipe/go.mod pins github.com/prometheus/alertmanager.
export const PROMETHEUS_VERSION = '3.16.0';
export const PROMETHEUS_MODULE_VERSION = 'v0.316.0';
export const ALERTMANAGER_VERSION = '0.35.0';
