// Text from records and traces stays text on a terminal: a run id, a reason, an attribute value
// may come from anyone who can write to a topic, and an escape sequence in it could move the
// cursor, rewrite the screen, set the window title or hide what follows. Control characters
// (C0 but tab, DEL, C1) are shown as \u escapes; so are the bidirectional overrides and isolates,
// which can make text read differently from what it is. Every command that prints such strings
// passes them through here (scorestream tail, scorestream otlp inspect).

// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** `text` with every character that could steer a terminal written as a visible `\uXXXX`. */
export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
