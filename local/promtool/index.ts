// Prometheus' promtool and Alertmanager's amtool, built from the Go module proxy with the recipes
// in recipe/ and alertmanager-recipe/ and cached; the project's rules and its
// Alertmanager example are checked and tested with them (dashboard/prometheus/, docs/alerts.md).
export { ALERTMANAGER_VERSION, PROMETHEUS_MODULE_VERSION, PROMETHEUS_VERSION } from './versions.ts';
export { ensurePrometheusTool, prometheusToolPath, PromtoolBuildError } from './build-promtool.ts';
export type { PrometheusTool } from './build-promtool.ts';
export { runPrometheusTool } from './run-promtool.ts';
export type { ToolResult } from './run-promtool.ts';
