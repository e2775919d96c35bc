import { readdirSync, readFileSync, statSync } from "node:fs";
import { extname, join, resolve } from "node:path";
import { redactText } from "../../redact/redact.js";
import { CairnError } from "../../util/errors.js";
import { readableText, type TextKind } from "./readableText.js";

/** The files a document may be read from, by extension: Markdown, plain text and JSON. */
const FILE_KINDS: Record<string, TextKind> = {
  ".md": "markdown",
  ".markdown": "markdown",
  ".mdx": "markdown",
  ".txt": "text",
  ".text": "text",
  ".json": "json",
};

export const DOCUMENT_EXTENSIONS = Object.keys(FILE_KINDS);

/** Folders a directory ingest never enters: dependencies and build output are not the project's documents. */
const SKIPPED_FOLDERS = new Set(["node_modules", "dist", "build", "target", "vendor", "__pycache__"]);

/**
 * The document files a path names: the file itself (which must have a document extension), or every
 * document file under a folder, hidden entries and dependency folders left out, in path order.
 */
export function documentFiles(path: string): string[] {
  const full = resolve(path);
  let stats: ReturnType<typeof statSync>;
  try {
    stats = statSync(full);
  } catch {
    throw refused(`ingest: ${path} does not exist (give a file, a folder or an http(s) URL)`);
  }
  if (stats.isFile()) {
    kindOfFile(full);
    return [full];
  }
  if (!stats.isDirectory()) throw refused(`ingest: ${path} is neither a file nor a folder`);
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.name.startsWith(".")) continue;
      const child = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name)) walk(child);
      } else if (entry.isFile() && FILE_KINDS[extname(entry.name).toLowerCase()] !== undefined) found.push(child);
    }
  };
  walk(full);
  if (found.length === 0) throw refused(`ingest: ${path} holds no ${DOCUMENT_EXTENSIONS.join(", ")} files`);
  return found;
}

/** A document file's text and title; refused when too large, of another kind, or not text. */
export function readDocumentFile(
  path: string,
  maxBytes: number,
): { title: string | null; text: string; kind: TextKind } {
  const kind = kindOfFile(path);
  let size: number;
  try {
    size = statSync(path).size;
  } catch {
    throw refused(`${path} can no longer be read (moved or deleted?)`);
  }
  if (size > maxBytes) throw refused(`${path} is ${size} bytes, over workers.documents.maxContentBytes (${maxBytes})`);
  return { ...readableText(readFileSync(path), kind, undefined, path), kind };
}

function kindOfFile(path: string): TextKind {
  const kind = FILE_KINDS[extname(path).toLowerCase()];
  if (kind === undefined)
    throw refused(
      `ingest: ${path} is not a document file (${DOCUMENT_EXTENSIONS.join(", ")}); give one of those, a folder or a URL`,
    );
  return kind;
}

/** A refused path: redacted, since a file or folder name can hold a token as well as any text can. */
function refused(message: string): CairnError {
  return new CairnError("bad_input", redactText(message));
}
