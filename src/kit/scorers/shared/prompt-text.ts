// Small helpers the judge prompts share, so every prompt fences the texts it quotes the same way.
// Quoted texts sit between tags: the judge can tell the material from the instructions, and an
// answer that itself contains instructions is visibly data.

/** `text` between `<name>` and `</name>` lines. */
export function tagged(name: string, text: string): string {
  return `<${name}>\n${text}\n</${name}>`;
}

/** Items as a numbered list ("1. …"), or "(none)" for an empty list. */
export function numberedList(items: readonly string[]): string {
  return items.length === 0 ? '(none)' : items.map((item, index) => `${index + 1}. ${item}`).join('\n');
}

/** A score as the reason prompts show it, e.g. "0.75 on a scale from 0 to 1". */
export function describeScore(score: number, scale: number): string {
  return `${score} on a scale from 0 to ${scale}`;
}

/**
 * The closing line of every reason prompt's material: the score (and, when given, what it was
 * computed from) and how the explanation begins. Run-specific, so after the fixed part.
 */
export function scoreToExplain(score: number, scale: number, from?: string): string {
  return `The score is ${describeScore(score, scale)}${from === undefined ? '' : `, ${from}`}. Begin with "The score is ${score} because".`;
}
