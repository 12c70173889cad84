// The `scorestream.verdicts` counter: for every binding that declares what passing means (`pass`),
// each record by verdict — `pass`, `fail`, and `not_scorable` / `failed` counted as what they are,
// never as a pass or a fail — by scorer, scorer version, agent and tenant. `pass` over
// `pass + fail` is the exact pass rate the shipped Prometheus rules and SLOs use
// (dashboard/prometheus/; docs/alerts.md). Beside it the `scorestream.pass.objective` gauge
// exports each binding's SLO objective from the config, so the rules need no per-scorer copy.
// Which records reach it (first scores of runs, not re-scores) is service-metrics.ts' call.
// Cardinality is bounded: scorers and versions come from the config, agents and tenants are
// labelled by the shared, bounded labeller (record-labels.ts), as in the score histogram.
import type { Counter, Meter } from '@opentelemetry/api';
import { recordLabels, scorerLabels } from './record-labels.ts';
import type { LabelledRecordFields, RecordLabels } from './record-labels.ts';

/** A binding with a pass criterion, as the metric needs it (structural: otel/ does not import the config types). */
export type JudgedBinding = { scorerId: string; version?: string | undefined; objective?: number | undefined };

/** The fields of a score record it reads. */
export type VerdictRecordFields = LabelledRecordFields & {
  scorerId: string;
  scorerVersion?: string | undefined;
  status: string;
  verdict?: string | undefined;
};

export type VerdictMetric = {
  record(record: VerdictRecordFields): void;
  unregister(): void;
};

const bindingKey = (scorerId: string, version: string | undefined) => `${scorerId}\u0000${version ?? ''}`;

export function registerVerdictMetric(meter: Meter, bindings: readonly JudgedBinding[], labels: RecordLabels = recordLabels()): VerdictMetric {
  const counter: Counter = meter.createCounter('scorestream.verdicts', {
    description: 'Records of bindings that declare pass, by verdict (pass, fail; not_scorable and failed as themselves), scorer, version, agent and tenant',
    unit: '{record}',
  });
  const objective = meter.createObservableGauge('scorestream.pass.objective', {
    description: "The pass-rate objective of each binding that declares one (pass.objective): the share of scored runs that should pass",
    unit: '1',
  });
  const judged = new Set(bindings.map((binding) => bindingKey(binding.scorerId, binding.version)));
  const withObjective = bindings.filter((binding) => binding.objective !== undefined);
  const observeObjective = (result: { observe(value: number, attributes: Record<string, string>): void }) => {
    for (const binding of withObjective) result.observe(binding.objective!, scorerLabels(binding.scorerId, binding.version));
  };
  if (withObjective.length > 0) objective.addCallback(observeObjective);
  return {
    record(record) {
      if (!judged.has(bindingKey(record.scorerId, record.scorerVersion))) return;
      // A scored record without a verdict (a label criterion whose scorer selected no choice) is not counted as either.
      const verdict = record.status === 'scored' ? record.verdict : record.status;
      if (verdict === undefined) return;
      counter.add(1, { ...scorerLabels(record.scorerId, record.scorerVersion), ...labels(record), 'scorestream.verdict': verdict });
    },
    unregister() {
      objective.removeCallback(observeObjective);
    },
  };
}
