import { escapeRegExp } from "./escapeRegExp.js";

/**
 * A text as it can stand in a stored value: as written, and JSON-escaped inside a JSON document (a
 * quote or backslash in it is stored escaped there).
 */
export function textForms(text: string): string[] {
  return [...new Set([text, JSON.stringify(text).slice(1, -1)])];
}

/** Matches every form of `text`, in any letter case. */
export function textFormsPattern(text: string): RegExp {
  return new RegExp(textForms(text).map(escapeRegExp).join("|"), "gi");
}
