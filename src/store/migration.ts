import type { Database } from "better-sqlite3";

/** One ordered schema step. `up` runs inside a transaction together with the version bump. */
export interface Migration {
  version: number;
  name: string;
  up(db: Database): void;
}
