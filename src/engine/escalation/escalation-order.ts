// The order escalation puts a run's bindings in (docs/spend-and-replay.md, escalation): a binding with
// `escalate` runs after the scorers its `when` reads. Checked at config load — each scorer read is
// bound once at run level and is not the binding itself, and no chain of escalations comes back
// to where it started — and resolved once per bindings list into indices, so nothing is looked
// up per run.
import type { ConfigProblem } from '../config/config-error.ts';
import { EARLIER_SCORE_FIELDS } from './escalation-schema.ts';

/** What the order reads of a binding: its scorer id, level, what passing means, its choices, and what its escalation reads. */
export type OrderedBinding = {
  scorerId: string;
  level?: string | undefined;
  pass?: object | undefined;
  scorer?: { choices?: readonly string[] | undefined };
  escalate?: { after: readonly string[]; reads?: readonly { id: string; field: string }[] } | undefined;
};

/**
 * A field the dependency never gives — not one of EARLIER_SCORE_FIELDS, a verdict without `pass`,
 * a label from a scorer that is not a classifier of a choice question: it would read as missing on
 * every run, and the judge would see only its sample.
 */
function unsetField(dependency: OrderedBinding, field: string): string | undefined {
  const fields: readonly string[] = EARLIER_SCORE_FIELDS;
  if (!fields.includes(field)) return `${field === '' ? 'no field is named' : `'${field}' is not a field of a score`}: read one of ${EARLIER_SCORE_FIELDS.map((name) => `scores.${dependency.scorerId}.${name}`).join(', ')}`;
  if ((field === 'verdict' || field === 'passed') && dependency.pass === undefined) return `scorer '${dependency.scorerId}' declares no pass, so its records carry no verdict; give its binding pass: { atLeast: … }, or read scores.${dependency.scorerId}.score`;
  if (field === 'label' && dependency.scorer?.choices === undefined) return `scorer '${dependency.scorerId}' is not a classifier of a choice question, so its records carry no label; read scores.${dependency.scorerId}.score`;
  return undefined;
}

/** Why an id is not found: bound ids with a dot cannot be read by path (`scores.a.b` reads scorer 'a'). */
function notBound(id: string, byId: ReadonlyMap<string, number[]>): string {
  const ids = [...byId.keys()];
  const dotted = ids.find((known) => known.startsWith(`${id}.`));
  if (dotted !== undefined) return `reads scores.${id}, but no scorer '${id}' is bound; scorer '${dotted}' has a dot in its id, which a path reads as a field: give it an id without dots`;
  return `reads scores.${id}, but no scorer '${id}' is bound at run level; bound: ${ids.map((known) => `'${known}'`).join(', ')}`;
}

/** The run-level bindings each id names (an id bound under two versions names two). */
function indicesById(bindings: readonly OrderedBinding[]): Map<string, number[]> {
  const byId = new Map<string, number[]>();
  bindings.forEach((binding, index) => {
    if (binding.level === 'thread') return;
    byId.set(binding.scorerId, [...(byId.get(binding.scorerId) ?? []), index]);
  });
  return byId;
}

/** A dependency cycle through `start`, as scorer ids (`a → b → a`), or undefined. */
function cycleFrom(start: number, dependencies: readonly (readonly number[])[], bindings: readonly OrderedBinding[]): string | undefined {
  const path: number[] = [];
  const onPath = new Set<number>();
  const done = new Set<number>();
  const visit = (index: number): number[] | undefined => {
    if (onPath.has(index)) return [...path.slice(path.indexOf(index)), index];
    if (done.has(index)) return undefined;
    path.push(index);
    onPath.add(index);
    for (const next of dependencies[index] ?? []) {
      const found = visit(next);
      if (found !== undefined) return found;
    }
    path.pop();
    onPath.delete(index);
    done.add(index);
    return undefined;
  };
  const cycle = visit(start);
  return cycle?.[0] === start ? cycle.map((index) => `'${bindings[index]!.scorerId}'`).join(' → ') : undefined;
}

/** Every problem of the bindings' escalations, each at its binding's `escalate.when`. */
export function escalationProblems(bindings: readonly OrderedBinding[]): ConfigProblem[] {
  const byId = indicesById(bindings);
  const problems: ConfigProblem[] = [];
  const dependencies: number[][] = bindings.map(() => []);
  bindings.forEach((binding, index) => {
    if (binding.escalate === undefined) return;
    const at = `scorers[${index}].escalate`;
    if (binding.level === 'thread') {
      problems.push({ path: at, message: "escalate applies to bindings that score runs; a thread binding (level: 'thread') cannot escalate yet, so remove it" });
      return;
    }
    for (const id of binding.escalate.after) {
      const bound = byId.get(id) ?? [];
      if (id === binding.scorerId) problems.push({ path: `${at}.when`, message: `scorer '${id}' cannot escalate on its own score; read a cheaper scorer's` });
      else if (bound.length === 0) problems.push({ path: `${at}.when`, message: notBound(id, byId) });
      else if (bound.length > 1) problems.push({ path: `${at}.when`, message: `reads scores.${id}, but scorer '${id}' is bound ${bound.length} times (scorers[${bound.join('], scorers[')}]), so which score decides is unclear; bind it once, or give the other version another id` });
      else dependencies[index]!.push(bound[0]!);
    }
    const checked = new Set<string>();
    for (const { id, field } of binding.escalate.reads ?? []) {
      if (checked.has(`${id}\u0000${field}`)) continue;
      checked.add(`${id}\u0000${field}`);
      const dependency = byId.get(id);
      const unset = dependency?.length === 1 ? unsetField(bindings[dependency[0]!]!, field) : undefined;
      if (unset !== undefined) problems.push({ path: `${at}.when`, message: `reads scores.${id}${field === '' ? '' : `.${field}`}, but ${unset}` });
    }
  });
  // One report per cycle: at the first binding on it.
  const reported = new Set<string>();
  bindings.forEach((_, index) => {
    const cycle = cycleFrom(index, dependencies, bindings);
    if (cycle === undefined) return;
    const members = [...new Set(cycle.split(' → '))].sort().join();
    if (reported.has(members)) return;
    reported.add(members);
    problems.push({ path: `scorers[${index}].escalate.when`, message: `escalations form a cycle (${cycle}): each would wait for the other's score; break it so one scorer runs without escalate` });
  });
  return problems;
}

const dependenciesOf = new WeakMap<readonly OrderedBinding[], readonly (readonly number[])[]>();

/**
 * For each binding, the indices of the bindings it waits for (empty for most), worked out once per
 * bindings list. The config check has refused unknown, ambiguous and cyclic dependencies.
 */
export function escalationDependencies(bindings: readonly OrderedBinding[]): readonly (readonly number[])[] {
  let known = dependenciesOf.get(bindings);
  if (known !== undefined) return known;
  const byId = indicesById(bindings);
  known = bindings.map((binding) => (binding.escalate?.after ?? []).flatMap((id) => byId.get(id)?.slice(0, 1) ?? []));
  dependenciesOf.set(bindings, known);
  return known;
}
