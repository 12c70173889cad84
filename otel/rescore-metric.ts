// The `scorestream.rescore.records` counter: the records of re-scores on feedback (a record with
// `rescore`; docs/feedback.md, re-scoring), apart from the first scores. Only disputed runs get a
// re-score, so counted as one more score it would count its run twice and pull its scorer's mean
// and pass rate towards the runs people disputed; the score histogram, the verdict counter and
// `scorestream.records` leave them out (service-metrics.ts) and this counts them instead.
// Labels: scorer, version, agent and tenant as the verdict counter has them (the shared, bounded
// labeller, record-labels.ts); `scorestream.status`; `scorestream.verdict` (`pass` / `fail`) when
// the record has one; `scorestream.rescore.reason` (`thumbs-down` / `correction`). All bounded.
import type { Counter, Meter } from '@opentelemetry/api';
import { recordLabels, scorerLabels } from './record-labels.ts';
import type { LabelledRecordFields, RecordLabels } from './record-labels.ts';

/** The fields of a re-score record it reads (structural, so otel/ does not import the contracts' full type). */
export type RescoreRecordFields = LabelledRecordFields & {
  scorerId: string;
  scorerVersion?: string | undefined;
  status: string;
  verdict?: string | undefined;
  rescore: { reason: string };
};

export type RescoreMetric = { record(record: RescoreRecordFields): void };

export function registerRescoreMetric(meter: Meter, labels: RecordLabels = recordLabels()): RescoreMetric {
  const counter: Counter = meter.createCounter('scorestream.rescore.records', {
    description: 'Records of re-scores on feedback, by scorer, version, agent, tenant, status, verdict (when the binding declares pass) and reason; never counted as scores',
    unit: '{record}',
  });
  return {
    record(record) {
      counter.add(1, {
        ...scorerLabels(record.scorerId, record.scorerVersion),
        ...labels(record),
        'scorestream.status': record.status,
        ...(record.status === 'scored' && record.verdict !== undefined ? { 'scorestream.verdict': record.verdict } : {}),
        'scorestream.rescore.reason': record.rescore.reason,
      });
    },
  };
}
