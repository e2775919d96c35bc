import { Collector } from "../../src/collection/collector.js";
import { scanSources } from "../../src/collection/scanner.js";
import type { SourceAdapter } from "../../src/sources/adapter.js";
import { openDatabase } from "../../src/store/connection.js";
import { ItemsRepository } from "../../src/store/repositories/itemsRepository.js";
import { SessionsRepository } from "../../src/store/repositories/sessionsRepository.js";
import { SourceFilesRepository } from "../../src/store/repositories/sourceFilesRepository.js";

/** A scan of one agent's roots into a fresh in-memory store: its report and the items it stored. */
export async function memoryScan(adapter: SourceAdapter, roots: string[]) {
  const { db } = openDatabase(":memory:");
  const items = new ItemsRepository(db);
  const collector = new Collector(new SessionsRepository(db), items, {
    maxUnprocessedItems: 5,
    clock: Date.now,
    projectKeyOf: () => null,
  });
  const deps = { db, files: new SourceFilesRepository(db), collector, clock: Date.now };
  return { report: await scanSources(deps, [{ adapter, roots }]), items };
}
