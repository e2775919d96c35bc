import { redactText } from "../redact/redact.js";
import { withoutControls } from "../text/controlCharacters.js";
import { invocation } from "./invocation.js";

/** Output helpers shared by every command: JSON for machines, aligned text for people. */
export function printJson(value: unknown): void {
  invocation().stdout(`${JSON.stringify(value, null, 2)}\n`);
}

/** A line for a person, most often with data in it: no control character of the data reaches the terminal. */
export function printLine(text = ""): void {
  invocation().stdout(`${withoutControls(text)}\n`);
}

/**
 * A value from data (a project's name, a path, a session id) inside a line: its line breaks shown as
 * `\n`, so that a name cannot print a line of its own ("forged" report lines).
 */
export function inline(text: string): string {
  return text.replace(/\r\n|\r|\n/g, "\\n");
}

/**
 * An error or a model's words inside a line: redacted (a provider's error body can echo the request's
 * secrets, a parse error quotes the answer) and inline. Redaction runs only where such text is printed,
 * so commands that print none (inject, recall) do not build the redactor.
 */
export function quoted(text: string): string {
  return inline(redactText(text));
}

/** A plain aligned table; columns are sized to their widest cell. */
export function printTable(headers: string[], rows: string[][]): void {
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...rows.map((row) => (row[column] ?? "").length)),
  );
  const format = (cells: string[]) =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
      .join("  ")
      .trimEnd();
  printLine(format(headers));
  for (const row of rows) printLine(format(row));
}

export function shorten(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}
