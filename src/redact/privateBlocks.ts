import { marker } from "./redact.js";

/** What a `<private>` block becomes: a redaction marker, so redaction stays idempotent around it. */
export const PRIVATE_MARKER = marker("private");

/** `<private>`, `<private reason="...">`, `</private>`, any case. */
const TAG = /<(\/?)private(?:\s[^<>]*)?>/gi;
/** The start of a tag at a given index (sticky). */
const TAG_AT = /<\/?private[\s>]/iy;

/**
 * Whether the text may hold a tag: runs for every imported item, so it hops from `<` to `<` and
 * looks closer only after `<p` or `</` (about four times faster than one case-insensitive search).
 */
function hasTag(text: string): boolean {
  for (let at = text.indexOf("<"); at !== -1; at = text.indexOf("<", at + 1)) {
    const next = text.charCodeAt(at + 1) | 32;
    if (next !== 112 && next !== 47) continue; // "p" or "P", or "/" (47 | 32 is 47)
    TAG_AT.lastIndex = at;
    if (TAG_AT.test(text)) return true;
  }
  return false;
}

/**
 * What a block left open at the end of a text becomes. A user who opens `<private>`, sends, and closes
 * it in the next message meant both parts: the import and the push API read this marker at the end of
 * a user's message as "the next message starts inside the block" (see `guardTurns`).
 */
export const PRIVATE_OPEN_MARKER = marker("private-open");

/** A text with its private blocks removed, and whether one is still open at its end. */
export interface PrivateStrip {
  text: string;
  open: boolean;
}

/**
 * Removes what a user fenced off with `<private>...</private>`: the text never reaches the store nor
 * a model. Tags are case-insensitive and nest; an unclosed `<private>` removes the rest of the text
 * (a user who forgot the closing tag still meant it) and leaves PRIVATE_OPEN_MARKER; a stray
 * `</private>` is dropped. Each removed block leaves one marker, so the reader sees that something
 * was withheld.
 */
export function stripPrivate(text: string): string {
  return stripPrivateFrom(text, false).text;
}

/**
 * `stripPrivate` for a text that may start inside a block (`open`: the user's previous message left
 * one open): what comes before its `</private>` is removed too. Nesting does not carry across texts:
 * an open block continues as one level.
 */
export function stripPrivateFrom(text: string, open: boolean): PrivateStrip {
  if (!open && !hasTag(text)) return { text, open: false };
  let out = open ? PRIVATE_MARKER : "";
  let depth = open ? 1 : 0;
  let openedAt = 0;
  let last = 0;
  TAG.lastIndex = 0;
  for (let match = TAG.exec(text); match !== null; match = TAG.exec(text)) {
    const closing = match[1] === "/";
    if (depth === 0) out += text.slice(last, match.index);
    if (!closing) {
      if (depth === 0) {
        openedAt = out.length;
        out += PRIVATE_MARKER;
      }
      depth += 1;
    } else if (depth > 0) depth -= 1;
    last = match.index + match[0].length;
  }
  if (depth === 0) return { text: out + text.slice(last), open: false };
  return { text: out.slice(0, openedAt) + PRIVATE_OPEN_MARKER, open: true };
}
