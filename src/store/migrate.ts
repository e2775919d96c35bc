import type { Database } from "better-sqlite3";
import { CairnError } from "../util/errors.js";
import type { Migration } from "./migration.js";

/**
 * Brings the schema to the newest version. Each step and its version bump commit together, so a crash
 * between steps leaves a database that the next start continues from.
 */
export function migrate(db: Database, steps: readonly Migration[]): { from: number; to: number } {
  const from = db.pragma("user_version", { simple: true }) as number;
  const latest = steps.at(-1)?.version ?? 0;
  if (from > latest) {
    throw new CairnError(
      "store_too_new",
      `the store was written by a newer cairn (schema ${from}, this one knows ${latest}); upgrade cairn or use another CAIRN_HOME`,
    );
  }
  for (const step of steps) {
    if (step.version <= from) continue;
    db.transaction(() => {
      // Read again under the write lock: another process opening the same new store may have applied
      // this step between our first read and now.
      const current = db.pragma("user_version", { simple: true }) as number;
      if (current >= step.version) return;
      step.up(db);
      db.pragma(`user_version = ${step.version}`);
    }).immediate();
  }
  return { from, to: Math.max(from, latest) };
}
