// Text from a run (tool names, error messages, argument values) made fit for a one-line reason a
// person reads: control and format characters — newlines, ANSI escapes, right-to-left marks —
// become spaces, and the text is cut to a length, without splitting a character.

/** `text` cut to at most `maxLength` characters (code points), an ellipsis marking the cut. */
export function shorten(text: string, maxLength: number): string {
  if (text.length <= maxLength) return text;
  const points = Array.from(text);
  return points.length <= maxLength ? text : `${points.slice(0, maxLength - 1).join('')}…`;
}

/** How long a tool name may be in a reason. */
export const MAX_TOOL_NAME_IN_REASON = 60;

/** `text` on one line, cut to `maxLength`: what a reason may show of anything the run carried. */
export function printableWithin(text: string, maxLength: number): string {
  return shorten(text.replace(/[\p{Cc}\p{Cf}]+/gu, ' ').trim(), maxLength);
}

/** A tool name (or other short text) for a reason; one argument, so `names.map(printable)` is safe. */
export function printable(text: string): string {
  return printableWithin(text, MAX_TOOL_NAME_IN_REASON);
}

/** "a, b and 3 more": at most `max` entries named. */
export function nameSome(names: readonly string[], max: number): string {
  const named = names.slice(0, max).join(', ');
  return names.length > max ? `${named} and ${names.length - max} more` : named;
}
