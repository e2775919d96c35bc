/**
 * Line-based editing of a block between two marker lines, for files cairn shares with the user
 * (AGENTS.md, config.toml). The block is appended after one blank line, and removing it removes that
 * blank line too, so install followed by uninstall gives back the file it started from.
 */
export interface Markers {
  begin: string;
  end: string;
}

/** The file with `block` (full lines, markers included) in place of any earlier cairn block. */
export function upsertBlock(text: string, markers: Markers, block: string[]): string {
  if (findBlock(text.split("\n"), markers)?.lines.join("\n") === block.join("\n")) return text;
  return appendBlock(removeBlock(text, markers), block);
}

export function appendBlock(text: string, block: string[]): string {
  const body = `${block.join("\n")}\n`;
  if (text === "") return body;
  return `${text.endsWith("\n") ? text : `${text}\n`}\n${body}`;
}

/** The file without the marked block and the blank line before it; `text` itself when there is none. */
export function removeBlock(text: string, markers: Markers): string {
  const lines = text.split("\n");
  const found = findBlock(lines, markers);
  if (!found) return text;
  const start = found.start > 0 && lines[found.start - 1]?.trim() === "" ? found.start - 1 : found.start;
  lines.splice(start, found.end - start + 1);
  return lines.join("\n");
}

function findBlock(lines: string[], markers: Markers): { start: number; end: number; lines: string[] } | undefined {
  const start = lines.findIndex((line) => line.trimEnd() === markers.begin);
  if (start < 0) return undefined;
  const length = lines.slice(start).findIndex((line) => line.trimEnd() === markers.end);
  if (length < 0) return undefined;
  return { start, end: start + length, lines: lines.slice(start, start + length + 1).map((line) => line.trimEnd()) };
}
