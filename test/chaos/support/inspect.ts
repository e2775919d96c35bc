import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import Database from "better-sqlite3";

export interface StoreFacts {
  integrity: string;
  sessions: number;
  /** Sessions without a current stage-1 output (missing, stale, or still invalidated). */
  missing: string[];
  outputs: number;
  /** Jobs still marked running once every process has exited. */
  running: number;
  /** Running jobs whose lease already expired: nobody will finish them until a claim takes them over. */
  expiredLeases: number;
  jobs: Array<{ kind: string; key: string; status: string; attempts: number; maxAttempts: number }>;
}

/** Reads the store the way an auditor would: straight SQL, no cairn code. */
export function inspectStore(databasePath: string): StoreFacts {
  const db = new Database(databasePath);
  try {
    const integrity = (db.pragma("integrity_check", { simple: true }) as string) ?? "";
    const sessions = (db.prepare("SELECT count(*) AS n FROM sessions").get() as { n: number }).n;
    const missing = (
      db
        .prepare(
          `SELECT s.id FROM sessions s LEFT JOIN stage1_outputs o ON o.session_id = s.id
           WHERE o.session_id IS NULL OR o.source_updated_at <> s.updated_at OR s.invalidated_at IS NOT NULL`,
        )
        .all() as Array<{ id: string }>
    ).map((row) => row.id);
    const outputs = (db.prepare("SELECT count(*) AS n FROM stage1_outputs").get() as { n: number }).n;
    const now = Date.now();
    const running = (db.prepare("SELECT count(*) AS n FROM jobs WHERE status = 'running'").get() as { n: number }).n;
    const expiredLeases = (
      db.prepare("SELECT count(*) AS n FROM jobs WHERE status = 'running' AND lease_expires_at <= ?").get(now) as {
        n: number;
      }
    ).n;
    const jobs = db
      .prepare("SELECT kind, key, status, attempts, max_attempts AS maxAttempts FROM jobs")
      .all() as StoreFacts["jobs"];
    return { integrity, sessions, missing, outputs, running, expiredLeases, jobs };
  } finally {
    db.close();
  }
}

/**
 * Every workspace reachable through the public paths (memories/global, memories/projects/*): each must
 * be a link that resolves, with a non-empty MEMORY.md, a memory_summary.md starting with `v1`, and no
 * temporary or hidden files. Returns one line per problem.
 */
export function workspaceProblems(memories: string): { workspaces: number; problems: string[] } {
  const problems: string[] = [];
  const paths = [join(memories, "global")];
  const projects = join(memories, "projects");
  if (existsSync(projects)) {
    for (const name of readdirSync(projects)) if (!name.startsWith(".")) paths.push(join(projects, name));
  }
  let workspaces = 0;
  for (const path of paths) {
    const where = relative(memories, path);
    if (!existsSync(path)) {
      problems.push(`${where}: does not resolve`);
      continue;
    }
    workspaces += 1;
    if (!lstatSync(path).isSymbolicLink()) problems.push(`${where}: not a published link`);
    const real = realpathSync(path);
    const memory = join(real, "MEMORY.md");
    if (!existsSync(memory) || readFileSync(memory, "utf8").trim() === "") problems.push(`${where}: MEMORY.md empty`);
    const summary = join(real, "memory_summary.md");
    if (!existsSync(summary) || readFileSync(summary, "utf8").split("\n", 1)[0]?.trim() !== "v1") {
      problems.push(`${where}: memory_summary.md does not start with v1`);
    }
    for (const file of walk(real)) {
      const base = file.split("/").at(-1) ?? "";
      if (base.startsWith(".") || base.endsWith(".tmp")) problems.push(`${where}: leftover ${relative(real, file)}`);
      else if (statSync(file).size === 0) problems.push(`${where}: empty file ${relative(real, file)}`);
    }
  }
  return { workspaces, problems };
}

/** Crash leftovers that readers never see: temp links beside the workspaces, stale version folders. */
export function hiddenLeftovers(memories: string): string[] {
  const found: string[] = [];
  for (const dir of [memories, join(memories, "projects")]) {
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir)) if (name.endsWith(".link")) found.push(relative(memories, join(dir, name)));
  }
  return found;
}

function walk(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...walk(full));
    else files.push(full);
  }
  return files;
}
