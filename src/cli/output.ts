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
