/**
 * Control characters other than tab and line feed (escape sequences that recolour, retitle or move
 * the cursor of a terminal, a carriage return that overwrites a line), and the bidirectional
 * overrides that make text read differently than it is.
 */
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * The text with each such character replaced by U+FFFD, so that data (a memory, a path, a model's
 * answer) shows as what it is wherever it is printed: a terminal, an agent's context, a file. A
 * Windows line end is a line end (a file saved on Windows reads as lines).
 */
export function withoutControls(text: string): string {
  return text.replace(/\r\n/g, "\n").replace(CONTROLS, "\uFFFD");
}

/**
 * The text with each NUL replaced by U+FFFD, one character for one. SQLite's text functions (`length`,
 * `instr`, `lower`, the `sqlite3` shell) end a text at its first NUL, so a stored transcript message
 * with one would lose everything after it to search, erasure and display.
 */
export function withoutNul(text: string): string {
  return text.includes("\0") ? text.replaceAll("\0", "\uFFFD") : text;
}
