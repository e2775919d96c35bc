import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { createCollector } from "../../src/collection/collector.js";
import { groupsOf } from "../../src/collection/fileImport.js";
import { type ScanTarget, scanSources } from "../../src/collection/scanner.js";
import { codexAdapter } from "../../src/sources/codex.js";
import { Storage } from "../../src/store/storage.js";
import { ThreadMutex } from "../../src/store/threadMutex.js";
import { tempDir } from "../helpers/tempDir.js";

const FIXTURES = fileURLToPath(new URL("../fixtures/codex/", import.meta.url));
const LANE_WORKER = new URL("../helpers/workers/importWorker.mjs", import.meta.url);
const DYING_WORKER = new URL("../helpers/workers/dyingWorker.mjs", import.meta.url);
const CLOSE_MARKING_WORKER = new URL("../helpers/workers/closeMarkingWorker.mjs", import.meta.url);
const COPIES = 4;

/** Each Codex fixture copied under new session ids: enough files for a scan to open lanes. */
function codexTree(root: string): void {
  const dir = join(root, "sessions", "2026", "03", "04");
  mkdirSync(dir, { recursive: true });
  for (const name of readdirSync(FIXTURES)) {
    const text = readFileSync(join(FIXTURES, name), "utf8");
    const id = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/.exec(name)?.[0];
    if (!id) continue;
    for (let copy = 0; copy < COPIES; copy++) {
      const copyId = `${id.slice(0, -4)}${String(copy).padStart(4, "0")}`;
      writeFileSync(join(dir, name.replace(id, copyId)), text.replaceAll(id, copyId));
    }
  }
}

function openStore(home: string, exclude: string[] = []) {
  const storage = Storage.open(join(home, "cairn.db"));
  const deps = {
    db: storage.db,
    files: storage.sourceFiles,
    collector: createCollector(storage, { maxUnprocessedItems: 5, clock: Date.now, exclude }),
    clock: Date.now,
  };
  return { storage, deps };
}

/** Everything a scan stores about sessions and items, without ids and times that differ run to run. */
function contents(storage: Storage) {
  return {
    sessions: storage.db
      .prepare(
        "SELECT id, agent, kind, cwd, content_hash, source_path IS NOT NULL AS sourced, invalidated_at IS NOT NULL AS pending FROM sessions ORDER BY id",
      )
      .all(),
    items: storage.db
      .prepare(
        "SELECT session_id, seq, key, role, text, tool, call_id, is_error, ts, origin_file, origin_line FROM items ORDER BY session_id, seq",
      )
      .all(),
  };
}

describe("import lanes", () => {
  let root: string;
  let targets: ScanTarget[];

  beforeEach(() => {
    root = tempDir("cairn-lanes-");
    codexTree(join(root, "codex"));
    targets = [{ adapter: codexAdapter, roots: [join(root, "codex")] }];
  });

  const scan = (home: string, workerUrl?: URL, exclude: string[] = []) => {
    const { storage, deps } = openStore(home, exclude);
    const lanes = workerUrl ? { lanes: { dbPath: join(home, "cairn.db"), maxUnprocessedItems: 5, workerUrl } } : {};
    return scanSources(deps, targets, lanes).finally(() => storage.close());
  };

  it("store exactly what an import in one thread stores, and report files in the same order", async () => {
    const inThread = await scan(join(root, "one"));
    const lanes = await scan(join(root, "lanes"), LANE_WORKER);
    expect(inThread.totals.imported).toBeGreaterThanOrEqual(16);
    expect(lanes.totals).toEqual(inThread.totals);
    const strip = (report: typeof lanes) =>
      report.files.map(({ path, status, read, itemsWritten, sessions }) => ({
        path,
        status,
        read,
        itemsWritten,
        sessions,
      }));
    expect(strip(lanes)).toEqual(strip(inThread));
    const one = Storage.open(join(root, "one", "cairn.db"));
    const many = Storage.open(join(root, "lanes", "cairn.db"));
    expect(contents(many)).toEqual(contents(one));
    expect(contents(many).items.length).toBeGreaterThan(100);
    one.close();
    many.close();
  });

  it("apply memories.exclude as an import in one thread does", async () => {
    const exclude = ["/home/dev/shop/**"];
    await scan(join(root, "one"), undefined, exclude);
    await scan(join(root, "lanes"), LANE_WORKER, exclude);
    const one = Storage.open(join(root, "one", "cairn.db"));
    const many = Storage.open(join(root, "lanes", "cairn.db"));
    const stored = contents(many);
    expect(stored).toEqual(contents(one));
    const excluded = stored.sessions.filter((row) => (row as { content_hash: string }).content_hash === "excluded");
    expect(excluded.length).toBeGreaterThanOrEqual(COPIES);
    const excludedIds = new Set(excluded.map((row) => (row as { id: string }).id));
    expect(stored.items.some((item) => excludedIds.has((item as { session_id: string }).session_id))).toBe(false);
    expect(stored.items.length).toBeGreaterThan(20);
    one.close();
    many.close();
  });

  it("continue appended files from their offset on the next scan, as an import in one thread does", async () => {
    await scan(join(root, "one"));
    await scan(join(root, "lanes"), LANE_WORKER);
    const dir = join(root, "codex", "sessions", "2026", "03", "04");
    for (const name of readdirSync(dir).sort().slice(0, 16)) {
      const note = { type: "message", role: "user", content: [{ type: "input_text", text: `late note for ${name}` }] };
      const event = { type: "user_message", message: `late note for ${name}`, images: [] };
      const at = "2026-03-04T12:00:00.000Z";
      appendFileSync(
        join(dir, name),
        `${JSON.stringify({ timestamp: at, type: "response_item", payload: note })}\n${JSON.stringify({ timestamp: at, type: "event_msg", payload: event })}\n`,
      );
    }
    const inThread = await scan(join(root, "one"));
    const lanes = await scan(join(root, "lanes"), LANE_WORKER);
    expect(lanes.totals).toEqual(inThread.totals);
    expect(lanes.totals.updated).toBeGreaterThanOrEqual(12);
    expect(lanes.files.filter((file) => file.read === "append").length).toBeGreaterThan(0);
    const one = Storage.open(join(root, "one", "cairn.db"));
    const many = Storage.open(join(root, "lanes", "cairn.db"));
    expect(contents(many)).toEqual(contents(one));
    const notes = many.db
      .prepare("SELECT count(DISTINCT session_id) AS n FROM items WHERE text LIKE 'late note for %'")
      .get();
    expect(notes).toEqual({ n: lanes.totals.updated });
    one.close();
    many.close();
  });

  it("are closed when discovery fails after they started", async () => {
    // The lanes start at the 16th changed file of the first root; the second root's discovery fails,
    // once every lane that started is ready to take messages (see closeMarkingWorker.mjs).
    const home = join(root, "broken-scan");
    const marks = (name: string) =>
      existsSync(`${home}/cairn.db.${name}`) ? readFileSync(`${home}/cairn.db.${name}`, "utf8") : "";
    const discover = codexAdapter.discover.bind(codexAdapter);
    const spy = vi.spyOn(codexAdapter, "discover").mockImplementation(async (where) => {
      if (!where.endsWith("broken")) return discover(where);
      await vi.waitFor(
        () => {
          expect(marks("started")).toMatch(/^x+$/);
          expect(marks("ready")).toBe(marks("started"));
        },
        { timeout: 20_000, interval: 50 },
      );
      throw new Error("disk went away");
    });
    try {
      const { storage, deps } = openStore(home);
      const lanes = {
        lanes: { dbPath: join(home, "cairn.db"), maxUnprocessedItems: 5, workerUrl: CLOSE_MARKING_WORKER },
      };
      const both = [{ adapter: codexAdapter, roots: [join(root, "codex"), join(root, "broken")] }];
      await expect(scanSources(deps, both, lanes)).rejects.toThrow("disk went away");
      storage.close();
      // Every lane that started was asked to close (none left to the 5 s terminate).
      expect(marks("started")).toMatch(/^x+$/);
      expect(marks("closed")).toBe(marks("started"));
    } finally {
      spy.mockRestore();
    }
  });

  it("lose no file when every lane dies: the scan imports them in its own thread", async () => {
    const inThread = await scan(join(root, "one"));
    const dying = await scan(join(root, "dying"), DYING_WORKER);
    expect(dying.totals).toEqual(inThread.totals);
    const one = Storage.open(join(root, "one", "cairn.db"));
    const lost = Storage.open(join(root, "dying", "cairn.db"));
    expect(contents(lost)).toEqual(contents(one));
    one.close();
    lost.close();
  });
});

describe("groupsOf", () => {
  const file = (size: number) => ({ stamp: { size } });

  it("cuts consecutive groups at the file and byte limits, never leaving a group empty", () => {
    const sizes = (groups: Array<Array<{ stamp: { size: number } }>>) => groups.map((g) => g.map((f) => f.stamp.size));
    expect(sizes(groupsOf([1, 1, 1, 1, 1].map(file), { files: 2, bytes: 100 }))).toEqual([[1, 1], [1, 1], [1]]);
    expect(sizes(groupsOf([40, 40, 40, 500, 1].map(file), { files: 10, bytes: 100 }))).toEqual([
      [40, 40],
      [40],
      [500],
      [1],
    ]);
    expect(groupsOf([], { files: 2, bytes: 100 })).toEqual([]);
  });
});

describe("ThreadMutex", () => {
  it("lets one thread at a time into the guarded section", async () => {
    const mutex = new ThreadMutex();
    const counter = new SharedArrayBuffer(12);
    const rounds = 5000;
    const url = new URL("../helpers/workers/mutexWorker.mjs", import.meta.url);
    await Promise.all(
      [1, 2, 3].map(
        (holder) =>
          new Promise<void>((resolve, reject) => {
            const worker = new Worker(url, {
              workerData: { mutex: mutex.buffer, counter, rounds, holder, workers: 3 },
            });
            worker.on("error", reject);
            worker.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`worker exited ${code}`))));
          }),
      ),
    );
    expect(new Int32Array(counter)[0]).toBe(3 * rounds);
  });

  it("releases after the guarded function throws, refuses re-entry, and ignores a release by a non-holder", () => {
    const mutex = new ThreadMutex();
    expect(() =>
      mutex.hold(1, () => {
        throw new Error("boom");
      }),
    ).toThrow("boom");
    expect(mutex.hold(2, () => "free again")).toBe("free again");
    expect(() => mutex.hold(1, () => mutex.hold(1, () => 0))).toThrow("not re-entrant");
    mutex.hold(1, () => {
      mutex.release(2);
      expect(Atomics.load(new Int32Array(mutex.buffer), 0)).toBe(1);
    });
    expect(() => mutex.hold(0, () => 0)).toThrow("positive integer");
  });
});
