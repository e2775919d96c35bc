const NEWLINE = 10;
const SPACE = 32;

/**
 * Binary search over the lines of `buffer` between byte offsets `start` and `end` (both at line
 * starts), sorted as `compare` expects: `compare(lineStart)` is negative when the wanted line sorts
 * before the one starting at `lineStart`, 0 on it. Returns the start of the matching line or -1. Only
 * the ~log2(n) lines visited are read, so a lookup needs no parse of the whole text.
 */
export function searchLines(
  buffer: Buffer,
  range: { start: number; end: number },
  compare: (lineStart: number) => number,
): number {
  let lo = range.start;
  let hi = range.end;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const lineStart = Math.max(lo, mid === 0 ? 0 : buffer.lastIndexOf(NEWLINE, mid - 1) + 1);
    const order = compare(lineStart);
    if (order === 0) return lineStart;
    if (order < 0) hi = lineStart;
    else lo = lineEnd(buffer, lineStart) + 1;
  }
  return -1;
}

/** The offset of the newline ending the line at `lineStart` (the buffer's length for an unterminated last line). */
export function lineEnd(buffer: Buffer, lineStart: number): number {
  const end = buffer.indexOf(NEWLINE, lineStart);
  return end < 0 ? buffer.length : end;
}

/**
 * Orders `key` against the space-delimited field starting at `at` (a line's key, after any marker
 * byte), byte by byte. The lines hold ASCII only: a character above 127 sorts after every byte there,
 * as its UTF-8 encoding would, so the order stays consistent and such a key is simply not found.
 */
export function compareKey(buffer: Buffer, at: number, key: string): number {
  for (let i = 0, p = at; ; i++, p++) {
    const byte = p < buffer.length ? buffer[p]! : NEWLINE;
    const fieldEnded = byte === SPACE || byte === NEWLINE;
    if (i === key.length) return fieldEnded ? 0 : -1;
    if (fieldEnded) return 1;
    const code = key.charCodeAt(i);
    if (code !== byte) return code < byte ? -1 : 1;
  }
}
