import { appendFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { Collector } from "../../src/collection/collector.js";
import { scanSources } from "../../src/collection/scanner.js";
import type { ReadRequest, ReadResult, SourceAdapter } from "../../src/sources/adapter.js";
import { asRecord, readJsonLines } from "../../src/sources/jsonl.js";
import { walkFiles } from "../../src/sources/walk.js";
import { openDatabase } from "../../src/store/connection.js";
import { ItemsRepository } from "../../src/store/repositories/itemsRepository.js";
import { SessionsRepository } from "../../src/store/repositories/sessionsRepository.js";
import { SourceFilesRepository } from "../../src/store/repositories/sourceFilesRepository.js";
import { tempDir } from "../helpers/tempDir.js";

/** A minimal line adapter: each line `{"role","text"}` is one item of the session named by the file. */
function lineAdapter(reads: ReadRequest[]): SourceAdapter {
  return {
    agent: "codex",
    discover: async (root) =>
      walkFiles(root, (name) => name.endsWith(".jsonl")).map((path) => ({ path, agent: "codex" })),
    read: async (request): Promise<ReadResult> => {
      reads.push(request);
      if (basename(request.file.path).startsWith("unreadable")) throw new Error("EACCES: permission denied");
      const lines = readJsonLines(request.file.path, request.resume ?? { offset: 0, line: 0 });
      const items = lines.records.map((record) => {
        const value = asRecord(record.value) ?? {};
        return {
          key: `L${record.line}`,
          role: "user" as const,
          text: String(value.text ?? ""),
          // A line {"bad": true} carries a value SQLite cannot bind: its file cannot be stored.
          ...(value.bad ? { tool: {} as unknown as string } : {}),
          origin: { file: request.file.path, line: record.line },
        };
      });
      return {
        sessions: [
          {
            session: {
              id: basename(request.file.path),
              agent: "codex",
              kind: "interactive",
              cwd: "/w",
              startedAt: 1,
              updatedAt: 2,
            },
            items,
          },
        ],
        problems: lines.problems,
        skipped: 0,
        resume: { offset: lines.endOffset, line: lines.endLine, state: null },
      };
    },
  };
}

describe("scanSources", () => {
  let dir: string;
  let reads: ReadRequest[];
  let deps: Parameters<typeof scanSources>[0];
  let items: ItemsRepository;

  beforeEach(() => {
    dir = tempDir("cairn-scan-");
    reads = [];
    const { db } = openDatabase(":memory:");
    items = new ItemsRepository(db);
    const sessions = new SessionsRepository(db);
    deps = {
      db,
      files: new SourceFilesRepository(db),
      collector: new Collector(sessions, items, { maxUnprocessedItems: 5, clock: Date.now, projectKeyOf: () => null }),
      clock: Date.now,
    };
  });

  const scan = () => scanSources(deps, [{ adapter: lineAdapter(reads), roots: [dir, join(dir, "missing")] }]);

  it("imports, then skips unchanged files without reading them", async () => {
    writeFileSync(join(dir, "a.jsonl"), '{"text":"one"}\n{"text":"two"}\n');
    const first = await scan();
    expect(first.totals).toMatchObject({ imported: 1, items: 2 });
    const second = await scan();
    expect(second.totals).toMatchObject({ unchanged: 1, imported: 0 });
    expect(reads).toHaveLength(1);
  });

  it("continues an appended file from its offset", async () => {
    const path = join(dir, "a.jsonl");
    writeFileSync(path, '{"text":"one"}\n');
    await scan();
    appendFileSync(path, '{"text":"two"}\n{"text":"three"}\n');
    const report = await scan();
    expect(report.files[0]).toMatchObject({ status: "updated", read: "append", itemsWritten: 2 });
    expect(reads[1]?.resume).toMatchObject({ offset: 15, line: 1 });
    expect(items.list("a.jsonl").map((i) => [i.seq, i.text])).toEqual([
      [1, "one"],
      [2, "two"],
      [3, "three"],
    ]);
  });

  it("leaves a torn last line for the next scan and imports it once complete", async () => {
    const path = join(dir, "a.jsonl");
    writeFileSync(path, '{"text":"one"}\n{"text":"tw');
    const first = await scan();
    expect(first.totals.problems).toBe(0);
    appendFileSync(path, 'o"}\n');
    await scan();
    expect(items.list("a.jsonl").map((i) => i.text)).toEqual(["one", "two"]);
  });

  it("re-reads a rewritten file and replaces its items", async () => {
    const path = join(dir, "a.jsonl");
    writeFileSync(path, '{"text":"one"}\n{"text":"two"}\n{"text":"three"}\n');
    await scan();
    writeFileSync(path, '{"text":"uno"}\n');
    const report = await scan();
    expect(report.files[0]?.read).toBe("full");
    expect(items.list("a.jsonl").map((i) => i.text)).toEqual(["uno"]);
  });

  it("reports malformed lines with their line numbers and imports the rest", async () => {
    writeFileSync(join(dir, "a.jsonl"), '{"text":"one"}\nnot json\n\n{"text":"three"}\n');
    const report = await scan();
    expect(report.files[0]?.problems).toEqual([
      expect.objectContaining({ line: 2, reason: expect.stringContaining("malformed JSON") }),
    ]);
    expect(items.list("a.jsonl").map((i) => i.text)).toEqual(["one", "three"]);
  });

  it("treats a same-size rewrite with a new mtime as changed", async () => {
    const path = join(dir, "a.jsonl");
    writeFileSync(path, '{"text":"aaa"}\n');
    await scan();
    writeFileSync(path, '{"text":"bbb"}\n');
    const later = statSync(path).mtimeMs / 1000 + 5;
    utimesSync(path, later, later);
    await scan();
    expect(items.list("a.jsonl").map((i) => i.text)).toEqual(["bbb"]);
  });

  it("reports a file it cannot read or store and still imports the others of its group", async () => {
    writeFileSync(join(dir, "a.jsonl"), '{"text":"one"}\n');
    writeFileSync(join(dir, "b.jsonl"), '{"text":"fine"}\n{"bad":true}\n');
    writeFileSync(join(dir, "c.jsonl"), '{"text":"three"}\n');
    writeFileSync(join(dir, "unreadable.jsonl"), '{"text":"never"}\n');
    const report = await scan();
    const byName = new Map(report.files.map((file) => [basename(file.path), file]));
    expect(byName.get("a.jsonl")?.status).toBe("imported");
    expect(byName.get("c.jsonl")?.status).toBe("imported");
    expect(byName.get("b.jsonl")).toMatchObject({
      status: "failed",
      problems: [{ reason: expect.stringMatching(/^not stored: /) }],
    });
    expect(byName.get("unreadable.jsonl")).toMatchObject({
      status: "failed",
      problems: [{ reason: "unreadable: EACCES: permission denied" }],
    });
    // Nothing of the failed file stays behind, so the next scan tries it again.
    expect(items.list("b.jsonl")).toEqual([]);
    expect(deps.files.all().has(join(dir, "b.jsonl"))).toBe(false);
    expect(items.list("a.jsonl").map((i) => [i.text, i.originFile, i.originLine])).toEqual([["one", null, 1]]);
    expect(items.list("c.jsonl").map((i) => i.text)).toEqual(["three"]);
    const again = await scan();
    expect(again.totals).toMatchObject({ failed: 2, unchanged: 2 });
  });
});
