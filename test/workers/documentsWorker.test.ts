import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type Cairn, openCairn } from "../../src/index.js";
import { queueDocuments } from "../../src/memory/documents/queueDocuments.js";
import { removeTempDirs, tempDir } from "../helpers/tempDir.js";

// The documents worker of the daemon and of `cairn run`: it finishes the ingest jobs that are due (one a
// crash left queued, one the queue retries), on the one queue, and reports its stats.

const opened: Cairn[] = [];
afterEach(() => {
  for (const cairn of opened.splice(0)) cairn.close();
  removeTempDirs();
});

function open(home: string, clock: () => number, config: Record<string, unknown> = {}): Cairn {
  const cairn = openCairn({
    home,
    env: {},
    clock,
    importLanes: false,
    config: { "llm.provider": "offline", ...config },
  });
  opened.push(cairn);
  return cairn;
}

describe("the documents worker", () => {
  it("finishes a document whose ingest was queued but never run (a crash before the job ran)", async () => {
    const dir = tempDir("cairn-documents-worker-");
    const path = join(dir, "notes.md");
    writeFileSync(path, "# Notes\n\nThe staging deploy waits for the freeze to end.");
    let now = Date.parse("2026-11-01T10:00:00Z");
    const cairn = open(join(dir, "home"), () => now);
    const [id] = queueDocuments(cairn.storage, [{ sourceType: "file", source: path }], {
      scope: "docs",
      who: "user",
      now,
    });
    expect(cairn.documents({ scope: "docs" })).toMatchObject([{ id, status: "queued", chunkCount: 0 }]);

    now += 10_000;
    const cycle = await (await cairn.workers()).get("documents")!.tick();
    expect(cycle).toMatchObject({ processed: 1, failed: 0, queueDepth: 0 });
    expect(cairn.documents({ scope: "docs" })).toMatchObject([{ id, status: "done", chunkCount: 1, title: "Notes" }]);
    expect(cairn.status().workers.documents).toMatchObject({ processed: 1, failed: 0 });
    // Nothing left: the next cycle is skipped, said why.
    expect((await (await cairn.workers()).get("documents")!.tick()).skipped).toBe("nothing due");
  });

  it("a job run again after its holder died (its write committed, the job not marked done) writes no chunk twice", async () => {
    const dir = tempDir("cairn-documents-worker-");
    const path = join(dir, "notes.md");
    writeFileSync(path, `# Notes\n\n${"The staging deploy waits for the freeze to end. ".repeat(120)}`);
    let now = Date.parse("2026-11-01T10:00:00Z");
    const cairn = open(join(dir, "home"), () => now, { "workers.documents.chunkSize": 500 });
    const first = (await cairn.ingest({ path, scope: "docs", cwd: dir })).documents[0]!;
    const memories = () => (cairn.storage.db.prepare("SELECT count(*) AS n FROM memories").get() as { n: number }).n;
    const stored = memories();
    // The holder died after the indexing transaction: the job is due again, the document mid-way.
    cairn.storage.jobs.enqueue({ kind: "document_ingest", key: String(first.id), force: true });
    cairn.storage.documents.setStatus(first.id, "embedding", now);
    now += 10_000;
    expect(await (await cairn.workers()).get("documents")!.tick()).toMatchObject({ processed: 0, failed: 0 });
    expect(memories()).toBe(stored);
    expect(cairn.document({ id: first.id })).toMatchObject({ status: "done", chunkCount: first.chunks });
  });

  it("marks a document failed when the store refuses its chunks, and the queue retries it after its backoff", async () => {
    const dir = tempDir("cairn-documents-worker-");
    const home = join(dir, "home");
    const path = join(dir, "notes.md");
    writeFileSync(path, "# Notes\n\nThe staging deploy waits for the freeze to end.");
    let now = Date.parse("2026-11-01T10:00:00Z");
    const frozen = open(home, () => now, { "pipeline.mutationsFrozen": true });
    const [id] = queueDocuments(frozen.storage, [{ sourceType: "file", source: path }], {
      scope: "docs",
      who: "user",
      now,
    });
    const failed = await (await frozen.workers()).get("documents")!.tick();
    expect(failed).toMatchObject({ processed: 0, failed: 1, queueDepth: 1 });
    expect(frozen.documents({ scope: "docs" })).toMatchObject([
      { id, status: "failed", error: expect.stringContaining("mutationsFrozen") },
    ]);
    expect(frozen.storage.jobs.get("document_ingest", String(id))).toMatchObject({ status: "failed", attempts: 1 });
    frozen.close();

    const cairn = open(home, () => now);
    // Backing off: not due yet.
    expect((await (await cairn.workers()).get("documents")!.tick()).skipped).toBe("nothing due");
    now += 24 * 3_600_000;
    expect(await (await cairn.workers()).get("documents")!.tick()).toMatchObject({ processed: 1, failed: 0 });
    expect(cairn.documents({ scope: "docs" })).toMatchObject([{ id, status: "done", error: null, chunkCount: 1 }]);
  });
});
