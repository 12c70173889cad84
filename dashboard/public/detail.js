// The detail view of one score record: its outcome, reason, each step's result, and per judge
// step every execution's evidence — model, prompt, response, tokens, attempts, duration — and,
// opened from the feedback view, what the judge and the person each said; a re-score says which
// feedback it was scored again for. Every value is written as text.
import { el, formatScore, formatTime, jsonText } from './dom.js';
import { rescoreLabel } from './rescore-mark.js';

const STEPS = ['preprocess', 'analyze', 'generateScore', 'generateReason'];

function field(name, value) {
  return value === undefined || value === null || value === '' ? [] : [el('dt', {}, name), el('dd', {}, String(value))];
}

function pre(value, name) {
  return el('pre', { dataset: { field: name } }, jsonText(value));
}

function tokens(usage) {
  if (usage === undefined) return undefined;
  const parts = [['in', usage.inputTokens], ['out', usage.outputTokens], ['total', usage.totalTokens], ['reasoning', usage.reasoningTokens], ['cached', usage.cachedInputTokens]]
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${name} ${value}`);
  return parts.length === 0 ? undefined : parts.join(', ');
}

function execution(step, execution, index) {
  return el(
    'div',
    { className: 'execution', dataset: { step, execution: String(index) } },
    el('h4', {}, `${step} — judge call ${index + 1}: ${execution.status}`),
    el(
      'dl',
      {},
      field('model', execution.judgeProvider ? `${execution.judgeProvider} / ${execution.judgeModelId}` : execution.judgeModelId),
      field('attempts', execution.attemptCount),
      field('model calls', execution.modelCallCount),
      field('duration', `${execution.durationMs} ms`),
      field('tokens', tokens(execution.usage)),
      field('cost', execution.cost ? `${execution.cost.amount} ${execution.cost.unit} (${execution.cost.source})` : undefined),
      field('finish reason', execution.finishReason),
      field('error', execution.error ? `${execution.error.name}: ${execution.error.message}` : undefined),
    ),
    el('h5', {}, 'prompt'),
    pre(execution.prompt, 'prompt'),
    el('h5', {}, 'response'),
    pre(execution.output !== undefined ? execution.output : execution.rawOutput, 'response'),
  );
}

/** The judge's and the person's verdicts on a run, from an agreement pair (feedback view). */
export function disagreementSection(pair) {
  const human = pair.human;
  return [
    el('h3', { id: 'detail-disagreement' }, 'judge and person disagree'),
    el(
      'dl',
      { dataset: { field: 'verdicts' } },
      field('judge', `${pair.judge.label} (score ${formatScore(pair.judge.score)})`),
      field('person', `${human.label} (${human.name}: ${jsonText(human.value)})`),
      field('given by', `${human.source.replace('_', ' ')}${human.submitter ? ` ${human.submitter.name ?? human.submitter.id}` : ''}`),
      field('correction', human.correction ? `${human.correction.scorerId}${human.correction.scorerVersion ? ` v${human.correction.scorerVersion}` : ''}: ${[human.correction.score === undefined ? '' : `score ${human.correction.score}`, human.correction.label ?? ''].filter(Boolean).join(', ')}` : undefined),
      field('measured', formatTime(pair.at)),
    ),
    ...(human.comment === undefined ? [] : [el('h5', {}, 'comment'), pre(human.comment, 'comment')]),
  ];
}

/** What a re-score is scored again for; its figures are not the scorer's (aggregate-view.js). */
function rescoreSection(mark) {
  return el(
    'dl',
    { dataset: { field: 'rescore' } },
    field('re-score', `scored again because a person disagreed (${mark.reason}); not counted in the scorer's figures`),
    field('feedback', mark.feedbackId),
  );
}

export function renderDetail(body, detail, pair) {
  const record = detail.record;
  const outcome =
    record.status === 'scored'
      ? `score ${formatScore(record.score)}${record.verdict ? ` · ${record.verdict}` : ''}`
      : record.status === 'not_scorable'
        ? `not scorable at ${record.notScorable.step}`
        : `failed at ${record.error.failedStep}`;
  const parts = [
    el('h2', { className: `status-${record.status}`, id: 'detail-outcome' }, outcome, record.rescore === undefined ? '' : ` · ${rescoreLabel(record.rescore)}`),
    ...(record.rescore === undefined ? [] : [rescoreSection(record.rescore)]),
    ...(pair === undefined ? [] : disagreementSection(pair)),
    el(
      'dl',
      {},
      field('scorer', record.scorerName ? `${record.scorerId} (${record.scorerName})` : record.scorerId),
      field('scorer version', record.scorerVersion),
      field('run', record.runId),
      field('agent', `${record.entity.type} ${record.entity.id}${record.entity.version ? ` ${record.entity.version}` : ''}`),
      field('tenant', record.metadata?.tenantId),
      field('scored at', formatTime(Date.parse(record.scoredAt))),
      field('duration', `${record.durationMs} ms`),
      field('trace', record.trace?.traceId),
      field('span', record.trace?.spanId),
      field('source', `${record.source.topic}[${record.source.partition}] @ ${record.source.offset}`),
      field('score id', record.scoreId),
    ),
  ];
  if (record.status === 'scored' && record.reason !== undefined) parts.push(el('h3', {}, 'reason'), pre(record.reason, 'reason'));
  if (record.status === 'not_scorable') parts.push(el('h3', {}, 'why not scorable'), pre(record.notScorable.reason ?? '(no reason given)', 'notScorable'));
  if (record.status === 'failed') {
    parts.push(
      el('h3', {}, 'error'),
      pre(`${record.error.name}${record.error.code ? ` [${record.error.code}]` : ''}: ${record.error.message}\ncompleted steps: ${record.error.completedSteps.join(', ') || 'none'}\nretryable: ${record.error.retryable}`, 'error'),
    );
  }
  for (const step of STEPS) {
    const result = record.steps?.[step];
    const prompt = record.prompts?.[step];
    const executions = record.judge?.[step]?.executions ?? [];
    if (result === undefined && prompt === undefined && executions.length === 0) continue;
    parts.push(el('h3', {}, `step ${step}`));
    if (result !== undefined) parts.push(el('h5', {}, 'result'), pre(result, `step-${step}`));
    if (prompt !== undefined && executions.length === 0) parts.push(el('h5', {}, 'prompt'), pre(prompt, `prompt-${step}`));
    executions.forEach((item, index) => parts.push(execution(step, item, index)));
  }
  if (record.metadata !== undefined) parts.push(el('h3', {}, 'metadata'), pre(record.metadata, 'metadata'));
  if (record.sampling !== undefined) parts.push(el('h3', {}, 'sampling'), pre(record.sampling, 'sampling'));
  body.replaceChildren(...parts);
}
