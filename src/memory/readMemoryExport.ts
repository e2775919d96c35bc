import { redactText } from "../redact/redact.js";
import {
  EXPORT_FORMAT,
  EXPORT_VERSION,
  type ExportedMemory,
  exportedMemory,
  exportHeader,
} from "../requests/memoryTransfer.js";
import { futureProblem } from "../requests/remember.js";
import { CairnError } from "../util/errors.js";

/**
 * Reads an export file whole before anything is stored: the first line must name the format and a
 * version this cairn reads, and every memory line must be a memory (the remember checks and limits,
 * plus the export's fields). The first bad line is an error naming it; nothing is imported then.
 */
export function readMemoryExport(text: string, file: string, now: number): ExportedMemory[] {
  // The file's name and a line's fields (an unknown key, a date given as text) are quoted: redacted.
  const shown = redactText(file);
  const bad = (line: number, why: string) =>
    new CairnError("bad_input", `import: ${shown}:${line}: ${redactText(why)}; nothing was imported`);
  const lines = text.split("\n");
  const first = lines.findIndex((line) => line.trim().length > 0);
  if (first < 0) throw new CairnError("bad_input", `import: ${shown} is empty; nothing was imported`);
  const header = exportHeader().safeParse(parseJson(lines[first] as string, () => bad(first + 1, "not valid JSON")));
  if (!header.success)
    throw bad(first + 1, `the first line is not a cairn export header (run 'cairn export > file.jsonl' to make one)`);
  if (header.data.version !== EXPORT_VERSION)
    throw bad(
      first + 1,
      `${EXPORT_FORMAT} version ${header.data.version} is not one this cairn reads (it reads version ${EXPORT_VERSION}): import it with the cairn that exported it, or a newer one`,
    );
  const memories: ExportedMemory[] = [];
  const seen = new Set<number>();
  for (let index = first + 1; index < lines.length; index++) {
    const line = lines[index] as string;
    if (line.trim().length === 0) continue;
    const parsed = exportedMemory().safeParse(parseJson(line, () => bad(index + 1, "not valid JSON")));
    if (!parsed.success) throw bad(index + 1, parsed.error.issues[0]?.message ?? "not a memory");
    const future = futureProblem(parsed.data.occurredAt ?? undefined, now);
    if (future) throw bad(index + 1, future);
    if (seen.has(parsed.data.id)) throw bad(index + 1, `id ${parsed.data.id} is on an earlier line too`);
    seen.add(parsed.data.id);
    memories.push(parsed.data);
  }
  return memories;
}

function parseJson(line: string, fail: () => Error): unknown {
  try {
    return JSON.parse(line);
  } catch {
    throw fail();
  }
}
