import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { discovered, type ReadRequest, type ReadResult, type SourceAdapter, type SourceFile } from "./adapter.js";
import { readLegacySession } from "./opencode/readLegacySession.js";
import { readOpencodeDb } from "./opencode/readOpencodeDb.js";
import { type SkippedPath, walkFiles } from "./walk.js";

/** `opencode.db`, or `opencode-<channel>.db` for non-release channels. */
const DATABASE = /^opencode(-[\w.-]+)?\.db$/;

/**
 * OpenCode keeps every session in one SQLite database (v1.2+, `<data dir>/opencode.db`, overridable with
 * `OPENCODE_DB`); older installs left a JSON tree under `<data dir>/storage/` that may never have been migrated.
 */
export const opencodeAdapter: SourceAdapter = {
  agent: "opencode",
  async discover(root: string): Promise<SourceFile[]> {
    if (isFile(root)) return [databaseFile(root)];
    const databases = listNames(root)
      .filter((name) => DATABASE.test(name))
      .map((name) => databaseFile(join(root, name)));
    const skipped: SkippedPath[] = [];
    const legacy = walkFiles(
      join(root, "storage", "session"),
      (name) => name.startsWith("ses_") && name.endsWith(".json"),
      3,
      skipped,
    );
    return [...databases, ...discovered("opencode", legacy, skipped)];
  },
  async read(request: ReadRequest): Promise<ReadResult> {
    const path = request.file.path;
    return path.endsWith(".json") ? readLegacySession(path) : readOpencodeDb(path);
  },
};

function databaseFile(path: string): SourceFile {
  return { path, agent: "opencode", companions: [`${path}-wal`] };
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function listNames(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    // No OpenCode data here: nothing to discover.
    return [];
  }
}
