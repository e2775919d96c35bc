import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { type LineResume, TAIL_BYTES, tailHashOf } from "./adapter.js";
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
  /** True when the read stopped at its `maxBytes` window before the end of the file. */
  more?: boolean;
  /**
   * The bytes before `endOffset` (`TAIL_BYTES`, fewer at a file's start), copied when the read still
   * held them (always, unless the last chunk began after them): a resume point's hash is taken from
   * them (`resumeAfter`) instead of opening the file again.
   */
  tail?: Buffer;
}

const NEWLINE = 0x0a;

/**
 * Memory bounds of a read: the file is read in chunks, a line in progress is buffered up to
 * `maxLineBytes` (a longer line is skipped and reported, never held whole), and a read stops after
 * `maxBytes` of complete lines (`more`), so a caller imports a huge file in windows.
 */
export interface JsonLinesLimits {
  chunkBytes: number;
  maxLineBytes: number;
  /** Bytes of complete lines one read consumes at most; the read then stops at a line boundary. */
  maxBytes: number;
}

export const JSONL_LIMITS: JsonLinesLimits = {
  chunkBytes: 1024 * 1024,
  maxLineBytes: 32 * 1024 * 1024,
  maxBytes: Number.POSITIVE_INFINITY,
};

export interface JsonLinesOptions {
  /**
   * A stand-in for a complete line the caller drops anyway, recognized without parsing it (bulky
   * records such as encrypted reasoning); undefined means "parse this line".
   */
  standIn?: (text: string) => unknown;
  limits?: Partial<JsonLinesLimits>;
}

/**
 * Reads JSON Lines from a byte offset. Malformed lines are reported with their number and the rest is
 * read; a last line without its newline that does not parse is a write in progress (torn), not an error,
 * and is left for the next read. Memory stays within `limits` whatever the file's size.
 */
export function readJsonLines(
  path: string,
  from: { offset: number; line: number } = { offset: 0, line: 0 },
  options: JsonLinesOptions = {},
): JsonLinesRead {
  const limits = { ...JSONL_LIMITS, ...options.limits };
  const out: JsonLinesRead = {
    records: [],
    problems: [],
    blank: 0,
    endOffset: from.offset,
    endLine: from.line,
    torn: false,
  };
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    // No bigger than what is left to read: most transcripts are far smaller than a chunk.
    const chunk = Buffer.allocUnsafe(Math.max(1, Math.min(limits.chunkBytes, size - from.offset)));
    /** Bytes of the line in progress (after the last newline), carried into the next chunk. */
    let carry: Buffer = Buffer.alloc(0);
    /** Set while skipping the rest of a line that outgrew `maxLineBytes`. */
    let oversized = false;
    let position = from.offset;
    /** The bytes read last and the file offset of their first: what the tail hash is taken from. */
    let data: Buffer = chunk.subarray(0, 0);
    let dataStart = position;
    while (position < size) {
      const n = readSync(fd, chunk, 0, Math.min(chunk.length, size - position), position);
      if (n === 0) break;
      position += n;
      data = chunk.subarray(0, n);
      dataStart = position - n;
      if (oversized) {
        const newline = data.indexOf(NEWLINE);
        if (newline === -1) continue;
        out.endLine += 1;
        out.problems.push({
          file: path,
          line: out.endLine,
          reason: `line longer than ${limits.maxLineBytes} bytes skipped`,
        });
        out.endOffset = position - n + newline + 1;
        oversized = false;
        data = data.subarray(newline + 1);
        dataStart = out.endOffset;
      } else if (carry.length > 0) {
        data = Buffer.concat([carry, data]);
        dataStart -= carry.length;
      }
      const lastNewline = data.lastIndexOf(NEWLINE);
      const window = { start: from.offset, limits };
      if (lastNewline !== -1 && completeLines(data.subarray(0, lastNewline + 1), path, out, window, options.standIn)) {
        if (out.endOffset < size) out.more = true;
        return withTail(out, data, dataStart);
      }
      carry = Buffer.from(data.subarray(lastNewline + 1));
      if (carry.length > limits.maxLineBytes) {
        oversized = true;
        carry = Buffer.alloc(0);
      }
    }
    if (carry.length > 0 && !oversized) lastLine(carry, out);
    else if (oversized) out.torn = true;
    return withTail(out, data, dataStart);
  } finally {
    closeSync(fd);
  }
}

/** Sets `tail` when `data` (read from `dataStart`) holds the bytes before the read's end. */
function withTail(out: JsonLinesRead, data: Buffer, dataStart: number): JsonLinesRead {
  const end = out.endOffset - dataStart;
  const start = end - Math.min(TAIL_BYTES, out.endOffset);
  // A copy: the chunk buffer is reused by the next read.
  if (out.endOffset > 0 && start >= 0 && end <= data.length) out.tail = Buffer.from(data.subarray(start, end));
  return out;
}

/** The resume point after a read of lines, for a `ReadResult`, with the hash that guards it when known. */
export function resumeAfter(read: JsonLinesRead, state: unknown): { resume: LineResume; tailHash?: string } {
  const resume = { offset: read.endOffset, line: read.endLine, state };
  return read.tail === undefined ? { resume } : { resume, tailHash: tailHashOf(read.tail) };
}

/**
 * Parses complete lines (the bytes end with a newline) into `out`. Returns true when the read reached
 * its `maxBytes` window and stopped. One decode per chunk: newlines are found in the bytes (for
 * offsets) and in the text (for lines) side by side; UTF-8 never holds a newline byte inside a
 * character, so a chunk cut at a newline never splits one.
 */
function completeLines(
  bytes: Buffer,
  path: string,
  out: JsonLinesRead,
  window: { start: number; limits: JsonLinesLimits },
  standIn: JsonLinesOptions["standIn"],
): boolean {
  const { limits } = window;
  const content = bytes.toString("utf8");
  const base = out.endOffset;
  let start = 0;
  let charStart = 0;
  while (start < bytes.length) {
    const newline = bytes.indexOf(NEWLINE, start);
    const charEnd = content.indexOf("\n", charStart);
    out.endLine += 1;
    if (newline + 1 - start > limits.maxLineBytes) {
      out.problems.push({
        file: path,
        line: out.endLine,
        reason: `line longer than ${limits.maxLineBytes} bytes skipped`,
      });
    } else {
      const text = lineText(content.slice(charStart, charEnd));
      if (text.length === 0) out.blank += 1;
      else {
        const replaced = standIn?.(text);
        const parsed = replaced === undefined ? parseLine(text) : { ok: true as const, value: replaced };
        if (parsed.ok) out.records.push({ line: out.endLine, value: parsed.value });
        else out.problems.push({ file: path, line: out.endLine, reason: parsed.reason });
      }
    }
    start = newline + 1;
    charStart = charEnd + 1;
    out.endOffset = base + start;
    if (out.endOffset - window.start >= limits.maxBytes) return true;
  }
  return false;
}

/** The file's last bytes without a newline: a complete record, or a write in progress left for later. */
function lastLine(bytes: Buffer, out: JsonLinesRead): void {
  const text = lineText(bytes.toString("utf8"));
  if (text.length === 0) return;
  const parsed = parseLine(text);
  if (!parsed.ok) {
    out.torn = true;
    return;
  }
  out.endLine += 1;
  out.records.push({ line: out.endLine, value: parsed.value });
  out.endOffset += bytes.length;
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

/** A record's field as a plain object, or undefined; adapters use it to walk untrusted JSON safely. */
export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

export function asString(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}
