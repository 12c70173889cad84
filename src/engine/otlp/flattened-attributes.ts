// OpenInference and OpenLLMetry flatten message lists into one attribute per leaf, since OTel
// attributes cannot nest: `llm.input_messages.0.message.role`,
// `llm.output_messages.0.message.tool_calls.0.tool_call.function.name`, `gen_ai.prompt.1.content`,
// `gen_ai.completion.0.tool_calls.0.arguments`. This folds such a family back into the list of
// objects it came from (numeric segments become array indices), so the message reader
// (read-messages.ts) sees the OpenAI-like shape those leaves spell.
import type { OtlpAttributes, OtlpValue } from './otlp-span.ts';

type Tree = { [key: string]: Tree | OtlpValue };

/** The list under `prefix` (e.g. 'llm.input_messages'), in index order; undefined when none of its keys is there. */
export function unflatten(attributes: OtlpAttributes, prefix: string): unknown[] | undefined {
  const head = `${prefix}.`;
  let root: Tree | undefined;
  // Keys, not entries: only the values of this family are read (inspect counts reads).
  for (const key in attributes) {
    if (!key.startsWith(head)) continue;
    root ??= {};
    const path = key.slice(head.length).split('.');
    let node: Tree = root;
    for (let index = 0; index < path.length - 1; index++) {
      const segment = path[index]!;
      const next = node[segment];
      if (typeof next === 'object' && next !== null && !Array.isArray(next)) node = next as Tree;
      else node = node[segment] = {};
    }
    node[path.at(-1)!] = attributes[key]!;
  }
  return root === undefined ? undefined : (toList(root) as unknown[]);
}

/** Objects whose keys are all indices become arrays, recursively. */
function toList(node: Tree | OtlpValue): unknown {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return node;
  const keys = Object.keys(node);
  const converted: Record<string, unknown> = {};
  for (const key of keys) converted[key] = toList((node as Tree)[key]!);
  if (keys.length > 0 && keys.every((key) => /^\d+$/.test(key))) {
    return keys
      .map(Number)
      .sort((a, b) => a - b)
      .map((index) => converted[String(index)]);
  }
  return converted;
}
