import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Collector } from "../../src/collection/collector.js";
import { scanSources } from "../../src/collection/scanner.js";
import type { ReadRequest, SourceAdapter } from "../../src/sources/adapter.js";
import { claudeCodeAdapter } from "../../src/sources/claudeCode.js";
import { codexAdapter } from "../../src/sources/codex.js";
import { openDatabase } from "../../src/store/connection.js";
import { ItemsRepository } from "../../src/store/repositories/itemsRepository.js";
import { SessionsRepository } from "../../src/store/repositories/sessionsRepository.js";
import { SourceFilesRepository } from "../../src/store/repositories/sourceFilesRepository.js";

const FIXTURES = fileURLToPath(new URL("../fixtures/", import.meta.url));
const CODEX = join(FIXTURES, "codex", "rollout-2026-03-04T09-15-00-0199c0de-1111-7222-8333-944455556666.jsonl");
const CLAUDE = join(
  FIXTURES,
  "claude-code",
  "projects",
  "-home-dev-my-shop",
  "5b0c1d2e-3f40-4a51-8b62-7c83d94ea0f1.jsonl",
);

/** The adapter, recording each request it is given. */
function recorded(adapter: SourceAdapter, requests: ReadRequest[]): SourceAdapter {
  return {
    ...adapter,
    read: (request) => {
      requests.push(request);
      return adapter.read(request);
    },
  };
}

describe("a transcript larger than one read window", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "cairn-windows-"));
    mkdirSync(join(dir, "codex", "sessions"), { recursive: true });
    mkdirSync(join(dir, "claude", "projects", "p"), { recursive: true });
    copyFileSync(
      CODEX,
      join(dir, "codex", "sessions", "rollout-2026-03-04T09-15-00-0199c0de-1111-7222-8333-944455556666.jsonl"),
    );
    copyFileSync(CLAUDE, join(dir, "claude", "projects", "p", "5b0c1d2e-3f40-4a51-8b62-7c83d94ea0f1.jsonl"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function importAll(readWindowBytes?: number) {
    const { db } = openDatabase(":memory:");
    const items = new ItemsRepository(db);
    const sessions = new SessionsRepository(db);
    const deps = {
      db,
      files: new SourceFilesRepository(db),
      collector: new Collector(sessions, items, { maxUnprocessedItems: 5, clock: Date.now, projectKeyOf: () => null }),
      clock: Date.now,
      ...(readWindowBytes === undefined ? {} : { readWindowBytes }),
    };
    const requests: ReadRequest[] = [];
    const targets = [
      { adapter: recorded(codexAdapter, requests), roots: [join(dir, "codex")] },
      { adapter: recorded(claudeCodeAdapter, requests), roots: [join(dir, "claude")] },
    ];
    const report = await scanSources(deps, targets);
    const byId = (id: string) => items.list(id).map((item) => `${item.key} ${item.role}: ${item.text}`);
    return { report, requests, byId, rescan: () => scanSources(deps, targets), files: deps.files };
  }

  // Codex decides from its first read whether messages come from events: a window must cover the
  // first user and agent messages, as the 64 MB default does in any real rollout.
  it("is imported window by window, each written before the next is read, and ends with the same items", async () => {
    const whole = await importAll();
    const windowed = await importAll(2400);
    for (const id of ["0199c0de-1111-7222-8333-944455556666", "5b0c1d2e-3f40-4a51-8b62-7c83d94ea0f1"]) {
      expect(windowed.byId(id).length).toBeGreaterThan(10);
      expect(windowed.byId(id)).toEqual(whole.byId(id));
    }
    expect(whole.requests).toHaveLength(2);
    // Every read after the first of a file continues from where the previous window stopped.
    expect(windowed.requests.length).toBeGreaterThanOrEqual(5);
    expect(windowed.requests.filter((request) => request.resume !== undefined)).toHaveLength(
      windowed.requests.length - 2,
    );
    expect(windowed.requests.every((request) => request.window === 2400)).toBe(true);
    // The fixtures' malformed lines are reported once each, as in a whole read.
    const outcome = (report: typeof whole.report) => report.files.map((file) => [file.status, file.problems]);
    expect(outcome(windowed.report)).toEqual(outcome(whole.report));
    expect(windowed.report.totals.items).toBe(whole.report.totals.items);
    // The last window saved the whole file's size: the next scan does not open it.
    const rescan = await windowed.rescan();
    expect(rescan.files.map((file) => file.read)).toEqual(["none", "none"]);
    const saved = windowed.files.all();
    for (const [path, state] of saved) expect(state.size).toBe(statSync(path).size);
  });
});
