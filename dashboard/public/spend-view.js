// What the judges cost over the selected range, from the server's buckets: the records' `spend`
// summed per scorer and version, and per tenant, under the scorer, agent, tenant and time filters
// (not the status and score filters: spend is not a score, and a failed record's calls were paid).
// Re-scores' calls count: they were made. Pure, for the spend panel and its tests.

function matches(tally, filters) {
  if (filters.scorer && tally.scorer !== filters.scorer) return false;
  if (filters.agent && tally.agent !== filters.agent) return false;
  if (filters.tenant && tally.tenant !== filters.tenant) return false;
  return true;
}

const empty = () => ({ judgeCalls: 0, inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, cost: 0, unpricedCalls: 0 });

function add(into, tally) {
  into.judgeCalls += tally.judgeCalls ?? 0;
  into.inputTokens += tally.inputTokens ?? 0;
  into.cachedInputTokens += tally.cachedInputTokens ?? 0;
  into.outputTokens += tally.outputTokens ?? 0;
  into.cost += tally.cost ?? 0;
  into.unpricedCalls += tally.unpricedCalls ?? 0;
}

/** Rows by cost, then calls, highest first. */
const byCost = (a, b) => b.cost - a.cost || b.judgeCalls - a.judgeCalls;

/**
 * `{ byScorer: [{ scorer, version, … }], byTenant: [{ tenant, … }], totals, currency }` for the
 * buckets starting in [window.start, window.end); `currency` is the records' (one per deployment),
 * '' before any priced call.
 */
export function spendViews(store, filters, window) {
  const scorers = new Map();
  const tenants = new Map();
  const totals = empty();
  let currency = '';
  for (const [start, bucket] of store) {
    if (start < window.start || start >= window.end) continue;
    for (const tally of bucket.series.values()) {
      if (!(tally.judgeCalls > 0) || !matches(tally, filters)) continue;
      const scorerKey = `${tally.scorer}\u0000${tally.version}`;
      let scorer = scorers.get(scorerKey);
      if (scorer === undefined) scorers.set(scorerKey, (scorer = { scorer: tally.scorer, version: tally.version, ...empty() }));
      let tenant = tenants.get(tally.tenant);
      if (tenant === undefined) tenants.set(tally.tenant, (tenant = { tenant: tally.tenant, ...empty() }));
      add(scorer, tally);
      add(tenant, tally);
      add(totals, tally);
      if (currency === '' && tally.currency) currency = tally.currency;
    }
  }
  return { byScorer: [...scorers.values()].sort(byCost), byTenant: [...tenants.values()].sort(byCost), totals, currency };
}

/** A cost for the table: up to four significant decimals below 1, two above. */
export function formatCost(amount, currency) {
  if (amount === 0) return currency ? `0 ${currency}` : '—';
  const text = amount >= 1 ? amount.toFixed(2) : amount >= 0.0001 ? amount.toFixed(4) : amount.toExponential(2);
  return currency ? `${text} ${currency}` : text;
}

/** The share of input tokens read from a prompt cache, as a percentage, or '—' without input. */
export function cachedShare(row) {
  return row.inputTokens === 0 ? '—' : `${Math.round((1000 * row.cachedInputTokens) / row.inputTokens) / 10}%`;
}
