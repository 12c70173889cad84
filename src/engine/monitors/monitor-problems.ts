// What the monitor schema alone cannot check, because it needs the rest of the config: a monitor
// names a configured scorer, `passRate` only for a binding that declares `pass`, a pass rate's
// threshold is a share, and names are unique (they key the alert records).
import type { ConfigProblem } from '../config/config-error.ts';
import type { Monitor } from './monitor-schema.ts';

export function monitorProblems(monitors: readonly Monitor[], bindings: readonly { scorerId: string; pass?: unknown }[]): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const scorers = new Set(bindings.map((binding) => binding.scorerId));
  const judged = new Set(bindings.filter((binding) => binding.pass !== undefined).map((binding) => binding.scorerId));
  const names = new Map<string, number>();
  monitors.forEach((monitor, index) => {
    const at = `monitors[${index}]`;
    const earlier = names.get(monitor.name);
    if (earlier !== undefined) problems.push({ path: `${at}.name`, message: `monitor name '${monitor.name}' is already used by monitors[${earlier}]; names key the alert records, so give each its own` });
    names.set(monitor.name, index);
    if (!scorers.has(monitor.scorer)) {
      problems.push({ path: `${at}.scorer`, message: `no scorer '${monitor.scorer}' is bound in scorers (bound: ${[...scorers].join(', ')})` });
      return;
    }
    if (monitor.aggregation === 'passRate') {
      if (!judged.has(monitor.scorer)) problems.push({ path: `${at}.aggregation`, message: `passRate needs verdicts: give the binding of '${monitor.scorer}' a pass criterion (pass: { atLeast: 0.7 }), or monitor its mean` });
      const limit = monitor.threshold.below ?? monitor.threshold.above!;
      if (limit < 0 || limit > 1) problems.push({ path: `${at}.threshold`, message: `a pass rate is a share from 0 to 1, so a threshold of ${limit} can never or always be crossed` });
    }
  });
  return problems;
}
