// Tool names qualified by their plugin: Semantic Kernel calls a kernel function
// `<Plugin>-<function>` (`OrdersPlugin-get_order_status`; a dash, since OpenAI's function names
// allow no dot), and that full name is what its telemetry and the model see. Both parts are kept;
// a tool is found by either (docs/otlp.md): the full name, or the function's name alone.

/** The plugin and the function of a qualified name; no plugin for a plain one. */
export function toolNameParts(name: string): { plugin?: string; tool: string } {
  const dash = name.indexOf('-');
  if (dash <= 0 || dash === name.length - 1) return { tool: name };
  return { plugin: name.slice(0, dash), tool: name.slice(dash + 1) };
}

/** Whether `query` names the tool `name`: the same name, or the function of a plugin-qualified one. */
export function matchesToolName(query: string, name: string): boolean {
  return query === name || (toolNameParts(name).plugin !== undefined && toolNameParts(name).tool === query);
}
