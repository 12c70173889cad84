// The body a monitor's webhook receives for one notice (alerts.webhook; docs/alerts.md): `json`
// is the alert record exactly as on the alerts topic; `slack` is an incoming-webhook message whose
// text says what breached or recovered, by how much and since when. Names come from the config and
// the records, so they are escaped for Slack's mrkdwn (&, <, >) and can never become a link or a
// mention.
import type { AlertRecord } from '../../kit/contracts/alert-record.ts';
import type { WebhookFormat } from './alerts-schema.ts';

const escapeSlack = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function formatDuration(ms: number): string {
  if (ms % 86_400_000 === 0) return `${ms / 86_400_000}d`;
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}

/** One line: "support-quality breached: mean of completeness (agent support-agent) 0.21 < 0.25 over 2m". */
export function describeNotice(notice: AlertRecord): string {
  const { monitor } = notice;
  const scope = [monitor.agent === undefined ? '' : `agent ${monitor.agent}`, monitor.tenant === undefined ? '' : `tenant ${monitor.tenant}`].filter(Boolean).join(', ');
  const subject = `${monitor.aggregation} of ${monitor.scorer}${scope === '' ? '' : ` (${scope})`}`;
  const limit = 'below' in monitor.threshold ? `< ${monitor.threshold.below}` : `> ${monitor.threshold.above}`;
  const value = notice.value === null ? 'no data' : Number.isInteger(notice.value) ? String(notice.value) : notice.value.toFixed(3);
  const verb = notice.kind === 'breach' ? 'breached' : 'recovered';
  const condition = notice.kind === 'breach' ? (notice.noData ? `no data (${notice.samples} samples)` : `${value} ${limit}`) : `${value}, threshold ${limit}`;
  return `${monitor.name} ${verb}: ${subject} ${condition} over ${formatDuration(monitor.windowMs)} (${notice.samples} samples; since ${notice.since})`;
}

export function webhookBody(notice: AlertRecord, format: WebhookFormat): string {
  if (format === 'json') return JSON.stringify(notice);
  const icon = notice.kind === 'breach' ? ':rotating_light:' : ':white_check_mark:';
  return JSON.stringify({ text: `${icon} ${escapeSlack(describeNotice(notice))}` });
}
