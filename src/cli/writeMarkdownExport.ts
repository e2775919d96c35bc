import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../util/atomicWrite.js";
import { CairnError } from "../util/errors.js";

/**
 * The file an export writes into its folder, naming the files it wrote: a folder holding it is cairn's
 * to refresh; any other folder with something in it is the user's, and an export never writes there.
 */
export const EXPORT_MARKER = ".cairn-export";

const PICK = "pick an empty or new folder for --markdown";

/**
 * Refuses a `--markdown` folder an export must not write into, with one line saying what to do: a
 * path that is a file, or a folder holding files a cairn export did not write. Run before the export,
 * so nothing is written when the folder is wrong.
 */
export function checkMarkdownFolder(dir: string): void {
  let entries: string[];
  try {
    if (!statSync(dir).isDirectory())
      throw new CairnError("bad_input", `export: ${dir} is a file, not a folder; ${PICK}`);
    entries = readdirSync(dir);
  } catch (error) {
    if (CairnError.isInstance(error)) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return;
    throw new CairnError("bad_input", `export: cannot use ${dir} (${code ?? "error"}); ${PICK}`, { cause: error });
  }
  if (entries.length > 0 && !entries.includes(EXPORT_MARKER))
    throw new CairnError("bad_input", `export: ${dir} holds files cairn did not write; ${PICK}`);
}

/**
 * Writes an export's Markdown files into `dir` (checked by checkMarkdownFolder), each to a temporary
 * name and then renamed over, so a reader never sees half a file. The marker is written first, naming
 * both the last export's files and these: an export cut short leaves a folder the next one may refresh.
 * Files of the last export that this one did not write (a scope gone since) are removed.
 */
export function writeMarkdownExport(dir: string, files: ReadonlyMap<string, string>): void {
  checkMarkdownFolder(dir);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "error";
    throw new CairnError("bad_input", `export: cannot create the folder ${dir} (${code}); ${PICK}`, { cause: error });
  }
  const marker = join(dir, EXPORT_MARKER);
  const before = markedFiles(marker);
  const names = [...files.keys()];
  writeFileAtomic(marker, markerText([...new Set([...before, ...names])]));
  for (const [name, text] of files) writeFileAtomic(join(dir, name), text);
  for (const name of before) if (!files.has(name)) rmSync(join(dir, name), { force: true });
  writeFileAtomic(marker, markerText(names));
}

function markerText(names: string[]): string {
  return `${JSON.stringify({ writtenBy: "cairn export --markdown", files: names })}\n`;
}

/** The files the last export into this folder wrote: plain names only, so a marker cannot point elsewhere. */
function markedFiles(marker: string): string[] {
  try {
    const { files } = JSON.parse(readFileSync(marker, "utf8")) as { files?: unknown };
    return Array.isArray(files)
      ? files.filter((name): name is string => typeof name === "string" && /^[A-Za-z0-9._-]+\.md$/.test(name))
      : [];
  } catch {
    return [];
  }
}
