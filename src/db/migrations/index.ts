import type { Migration } from "../migration.js";
import { collection } from "./001_collection.js";

/** Every schema step in order. Append only: a shipped migration never changes. */
export const migrations: readonly Migration[] = [collection];
