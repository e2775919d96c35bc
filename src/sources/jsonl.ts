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
  /** True when the read stopped at its `maxBytes` window before the end of the file. */
  more?: boolean;
  /**
   * The `RESUME_TAIL_BYTES` bytes before `endOffset` (fewer at the start of the file), when the read
   * still held them; absent otherwise (a short append, a skipped oversized line).
   */
  tail?: Buffer;
}

/** Bytes before a resume offset whose hash tells an append from a rewrite (see `JsonLinesRead.tail`). */
export const RESUME_TAIL_BYTES = 256;

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
  const held: HeldTail = { bytes: Buffer.alloc(0), end: from.offset };
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
    while (position < size) {
      const n = readSync(fd, chunk, 0, Math.min(chunk.length, size - position), position);
      if (n === 0) break;
      position += n;
      let data = chunk.subarray(0, n);
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
        holdTail(held, data.subarray(0, newline + 1), out.endOffset);
        oversized = false;
        data = data.subarray(newline + 1);
      } else if (carry.length > 0) {
        data = Buffer.concat([carry, data]);
      }
      const lastNewline = data.lastIndexOf(NEWLINE);
      const window = { start: from.offset, limits };
      const dataStart = out.endOffset;
      const stopped =
        lastNewline !== -1 && completeLines(data.subarray(0, lastNewline + 1), path, out, window, options.standIn);
      holdTail(held, data.subarray(0, out.endOffset - dataStart), out.endOffset);
      if (stopped) {
        if (out.endOffset < size) out.more = true;
        return withTail(out, held);
      }
      carry = Buffer.from(data.subarray(lastNewline + 1));
      if (carry.length > limits.maxLineBytes) {
        oversized = true;
        carry = Buffer.alloc(0);
      }
    }
    if (carry.length > 0 && !oversized) {
      const before = out.endOffset;
      lastLine(carry, out);
      holdTail(held, carry.subarray(0, out.endOffset - before), out.endOffset);
    } else if (oversized) out.torn = true;
    return withTail(out, held);
  } finally {
    closeSync(fd);
  }
}

/** The last bytes a read consumed, up to `RESUME_TAIL_BYTES`, and the file offset they end at. */
interface HeldTail {
  bytes: Buffer;
  end: number;
}

/** Keeps the last bytes of `bytes` (which end at file offset `end`), joined to those held if adjacent. */
function holdTail(held: HeldTail, bytes: Buffer, end: number): void {
  if (bytes.length === 0 && held.end === end) return;
  const joined = held.end === end - bytes.length && bytes.length < RESUME_TAIL_BYTES;
  const source = joined ? Buffer.concat([held.bytes, bytes]) : bytes;
  // A copy: the read reuses its chunk for the next bytes of the file.
  held.bytes = Buffer.from(source.subarray(Math.max(0, source.length - RESUME_TAIL_BYTES)));
  held.end = end;
}

/** The read with its `tail`, when the held bytes are all of the ones before `endOffset`. */
function withTail(out: JsonLinesRead, held: HeldTail): JsonLinesRead {
  const want = Math.min(RESUME_TAIL_BYTES, out.endOffset);
  if (held.end === out.endOffset && held.bytes.length >= want) out.tail = held.bytes.subarray(held.bytes.length - want);
  return out;
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
