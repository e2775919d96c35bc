import { withoutControls } from "../text/controlCharacters.js";

/**
 * Memory text (and names taken from data) made safe to put in an agent's context. The guidance tells
 * the model that memory is data; that only holds if nothing inside the data can end the block it sits
 * in, so every piece of data goes through here before it is placed in the injected text.
 */

// Line breaks other than \n: a model (and some renderers) may take them as new lines.
const LINE_BREAKS = /\r\n?|[\u000b\u000c\u0085\u2028\u2029]/g;
// A closing tag could end a wrapper the agent puts around injected context (Claude Code wraps it in
// <system-reminder>); an opening citation tag would look like cairn's own protocol.
const TAGS = /<(?=\/\s*[A-Za-z]|memory-citations\b)/gi;

/** Memory text with line breaks normalized, control characters replaced and tags defused. */
export function neutralizeMemoryText(text: string): string {
  return withoutControls(text.replace(LINE_BREAKS, "\n")).replace(TAGS, "&lt;");
}

/** A name from data (project name, path) as one short line: it goes in a heading, outside any fence. */
export function singleLine(text: string, maxChars = 120): string {
  const flat = neutralizeMemoryText(text).replace(/\s+/g, " ").trim();
  return flat.length > maxChars ? `${flat.slice(0, maxChars - 1)}…` : flat;
}

/**
 * A fenced block the text cannot close: the fence is longer than any run of backticks in the text.
 * `note` goes inside the fence, after the text.
 */
export function fencedBlock(title: string, text: string, note?: string): string {
  const body = note ? (text ? `${text}\n${note}` : note) : text;
  const longestRun = Math.max(2, ...[...body.matchAll(/`+/g)].map((match) => match[0].length));
  const fence = "`".repeat(longestRun + 1);
  return `### ${singleLine(title, 200)}\n${fence}text\n${body}\n${fence}`;
}
