/**
 * Cuts a document's text into overlapping windows of at most `size` characters, each starting at most
 * `overlap` characters before the previous one ended (seed 004: 2,000 and 200 by default), so a
 * sentence cut at a boundary is whole in one of the two chunks. A window ends at the last whitespace of
 * its final fifth and the next starts at a word when there is one, so words are not split; a text no
 * longer than one window is one chunk.
 */
export function chunkText(text: string, size: number, overlap: number): string[] {
  if (!Number.isInteger(size) || size < 1) throw new Error(`chunk size must be a positive integer, not ${size}`);
  if (overlap < 0 || overlap >= size)
    throw new Error(`chunk overlap (${overlap}) must be at least 0 and below the chunk size (${size})`);
  if (text.length <= size) return text.trim().length === 0 ? [] : [text];
  const chunks: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(start + size, text.length);
    if (end < text.length) {
      const floor = start + Math.max(overlap + 1, Math.floor(size * 0.8));
      const space = lastWhitespace(text, floor, end);
      if (space > floor) end = space;
    }
    chunks.push(text.slice(start, end));
    if (end >= text.length) break;
    start = overlapStart(text, end - overlap, end);
  }
  return chunks.filter((chunk) => chunk.trim().length > 0);
}

/**
 * Where the next window starts: `from` (the overlap's first character) when a word starts there,
 * else at the first word after it within the overlap, so a chunk does not open mid-word; the overlap is
 * then shorter than configured, never longer.
 */
function overlapStart(text: string, from: number, to: number): number {
  if (from <= 0 || /\s/.test(text[from - 1]!)) return from;
  for (let i = from; i < to - 1; i++) if (/\s/.test(text[i]!) && !/\s/.test(text[i + 1]!)) return i + 1;
  return from;
}

/** The index just after the last whitespace character in text[from, to), or -1. */
function lastWhitespace(text: string, from: number, to: number): number {
  for (let i = to - 1; i >= from; i--) if (/\s/.test(text[i]!)) return i + 1;
  return -1;
}
