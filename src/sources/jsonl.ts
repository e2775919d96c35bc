import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import type { ParseProblem } from "./types.js";

export interface JsonLine {
  /** 1-based line number in the file. */
  line: number;
  value: unknown;
}

export interface JsonLinesRead {
  records: JsonLine[];
  problems: ParseProblem[];
  /** Blank lines seen (not problems). */
  blank: number;
  /** Offset and line count after the last complete record: where an append continues. */
  endOffset: number;
  endLine: number;
  /** True when the file ended in an incomplete line that was left for the next read. */
  torn: boolean;
}

const NEWLINE = 0x0a;

/**
 * Reads JSON Lines from a byte offset. Malformed lines are reported with their number and the rest is
 * read; a last line without its newline that does not parse is a write in progress (torn), not an error,
 * and is left for the next read.
 */
export function readJsonLines(
  path: string,
  from: { offset: number; line: number } = { offset: 0, line: 0 },
  options: {
    /**
     * A stand-in for a complete line the caller drops anyway, recognized without parsing it (bulky
     * records such as encrypted reasoning); undefined means "parse this line".
     */
    standIn?: (text: string) => unknown;
  } = {},
): JsonLinesRead {
  const buffer = readFrom(path, from.offset);
  // One decode for the whole read: newlines are found in the bytes (for offsets) and in the text (for
  // lines) side by side; UTF-8 never holds a newline byte inside a character.
  const content = buffer.toString("utf8");
  const records: JsonLine[] = [];
  const problems: ParseProblem[] = [];
  let blank = 0;
  let start = 0;
  let charStart = 0;
  let line = from.line;
  let consumed = 0;
  let torn = false;
  while (start < buffer.length) {
    const newline = buffer.indexOf(NEWLINE, start);
    const complete = newline !== -1;
    const charEnd = complete ? content.indexOf("\n", charStart) : content.length;
    const text = lineText(content.slice(charStart, charEnd));
    line += 1;
    if (text.length === 0) {
      if (complete) blank += 1;
    } else {
      const standIn = complete ? options.standIn?.(text) : undefined;
      const parsed = standIn === undefined ? parseLine(text) : { ok: true as const, value: standIn };
      if (parsed.ok) records.push({ line, value: parsed.value });
      else if (complete) problems.push({ file: path, line, reason: parsed.reason });
      else {
        torn = true;
        line -= 1;
        break;
      }
    }
    consumed = complete ? newline + 1 : buffer.length;
    start = consumed;
    charStart = charEnd + 1;
  }
  return { records, problems, blank, endOffset: from.offset + consumed, endLine: line, torn };
}

/** A line without surrounding whitespace; a line that is one object already (nearly all) is not copied. */
function lineText(raw: string): string {
  return raw.charCodeAt(0) === 123 && raw.charCodeAt(raw.length - 1) === 125 ? raw : raw.trim();
}

function parseLine(text: string): { ok: true; value: unknown } | { ok: false; reason: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    const detail = error instanceof Error ? error.message.split("\n")[0] : "unparseable";
    return { ok: false, reason: `malformed JSON (${detail})` };
  }
}

function readFrom(path: string, offset: number): Buffer {
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    const length = Math.max(0, size - offset);
    const buffer = Buffer.allocUnsafe(length);
    let read = 0;
    while (read < length) {
      const n = readSync(fd, buffer, read, length - read, offset + read);
      if (n === 0) break;
      read += n;
    }
    return buffer.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

/** A record's field as a plain object, or undefined; adapters use it to walk untrusted JSON safely. */
export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

export function asString(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}
