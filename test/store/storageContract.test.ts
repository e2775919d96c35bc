import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defaultRecallConfig } from "../../src/config/recallConfig.js";
import { MemoryStore } from "../../src/memory/memoryStore.js";
import { createHashedEmbeddingProvider } from "../../src/providers/embeddings/hashedEmbedding.js";
import { Storage } from "../../src/store/storage.js";
import { withWriteTx } from "../../src/store/tx.js";
import { tempDir } from "../helpers/tempDir.js";

/** The contract every Storage backend keeps, run over the file store and the in-memory store. */
const backends: Array<{ name: string; open: (clock: () => number) => Storage }> = [
  {
    name: "the file store",
    open: (clock) => Storage.open(join(tempDir("cairn-contract-"), "cairn.db"), { queue: { clock } }),
  },
  { name: "the in-memory store", open: (clock) => Storage.open(":memory:", { queue: { clock } }) },
];

describe.each(backends)("Storage contract over $name", ({ open }) => {
  const now = 1_700_000_000_000;
  const clock = () => now;
  let storage: Storage;
  let memories: MemoryStore;

  beforeEach(() => {
    storage = open(clock);
    const embeddings = createHashedEmbeddingProvider({ dimensions: 384 });
    memories = new MemoryStore({ storage, embeddings, config: defaultRecallConfig(), clock });
  });
  afterEach(() => storage.close());

  it("remembers a memory, reads it back, deduplicates it and tombstones it on forget", async () => {
    const created = await memories.remember({ content: "Releases are tagged from main", scope: "global", who: "user" });
    expect(created).toMatchObject({ status: "created" });
    expect(created.warnings).toBeUndefined();
    const record = storage.memories.get(created.id!);
    expect(record).toMatchObject({ content: "Releases are tagged from main", scope: "global", deletedAt: null });
    expect(record?.embeddingModel).toBe("hashed-v1-384");
    expect(await memories.remember({ content: "Releases are tagged from main", scope: "global" })).toMatchObject({
      status: "deduped",
      id: created.id,
    });
    expect(memories.forget(created.id!, { reason: "outdated" })).toBe(true);
    expect(storage.memories.get(created.id!)?.deletedAt).toBe(now);
    expect(storage.memories.counts()).toMatchObject({ live: 0, deleted: 1 });
  });

  it("records every change of a memory in its history, oldest first", async () => {
    const { id } = await memories.remember({ content: "Use pnpm, not npm", scope: "global", who: "user" });
    memories.forget(id!, { who: "agent", reason: "the project moved to bun" });
    expect(storage.history.list(id!).map((e) => [e.event, e.who, e.reason])).toEqual([
      ["created", "user", null],
      ["deleted", "agent", "the project moved to bun"],
    ]);
  });

  it("keeps sessions and their items in order", () => {
    withWriteTx(storage.db, () => {
      storage.sessions.upsert({
        info: { id: "s1", agent: "codex", kind: "interactive", cwd: "/work/app", startedAt: now - 10, updatedAt: now },
        projectKey: "path:/work/app",
        sourcePath: null,
        now,
      });
      storage.items.insertNew("s1", [
        { key: "L1", role: "user", text: "run the tests", origin: { file: "f", line: 1 } },
        { key: "L2", role: "assistant", text: "they pass", origin: { file: "f", line: 2 } },
      ]);
    });
    expect(storage.sessions.get("s1")).toMatchObject({ agent: "codex", projectKey: "path:/work/app" });
    expect(storage.items.list("s1").map((i) => [i.seq, i.role, i.text])).toEqual([
      [1, "user", "run the tests"],
      [2, "assistant", "they pass"],
    ]);
    expect(storage.transcripts.items("s1", 2, 2, 10)).toEqual([{ seq: 2, role: "assistant", text: "they pass" }]);
  });

  it("hands a queued job to one claimer only, until it is given back", () => {
    storage.jobs.enqueue({ kind: "phase1", key: "s1", watermark: 1 });
    const [lease] = storage.jobs.claim({ kind: "phase1" });
    expect(lease).toMatchObject({ kind: "phase1", key: "s1" });
    expect(storage.jobs.claim({ kind: "phase1" })).toEqual([]);
    expect(storage.jobs.succeed(lease!)).toBe(true);
    expect(storage.jobs.get("phase1", "s1")?.status).toBe("succeeded");
  });

  it("erases whole scopes with their vectors and history", async () => {
    const kept = await memories.remember({ content: "The API runs on port 8080", scope: "app" });
    const gone = await memories.remember({ content: "Deploy on Fridays is forbidden", scope: "other" });
    expect(withWriteTx(storage.db, () => storage.erase.scopes(["other"]))).toBe(1);
    expect(storage.memories.get(gone.id!)).toBeUndefined();
    expect(storage.history.list(gone.id!)).toEqual([]);
    expect(storage.memories.get(kept.id!)?.content).toBe("The API runs on port 8080");
  });

  it("erases what sessions taught with the flags about it, and names what it had replaced", async () => {
    const older = await memories.remember({
      content: "Installs use npm",
      scope: "app",
      provenance: { sessionId: "s1" },
    });
    const newer = await memories.remember({
      content: "Installs use pnpm",
      scope: "app",
      provenance: { sessionId: "s2" },
    });
    const other = await memories.remember({
      content: "CI runs on Fridays",
      scope: "app",
      provenance: { sessionId: "s2" },
    });
    const kept = await memories.remember({ content: "The API runs on port 8080", scope: "app" });
    memories.supersede(older.id!, newer.id!);
    withWriteTx(storage.db, () =>
      storage.reviews.add({ memoryId: kept.id!, relatedId: other.id!, reason: "r", detector: "d", now }),
    );
    expect(withWriteTx(storage.db, () => storage.erase.sessions(["s2"]))).toEqual({ erased: 2, replaced: [older.id] });
    expect(storage.memories.get(newer.id!)).toBeUndefined();
    expect(storage.memories.get(other.id!)).toBeUndefined();
    expect(storage.history.list(newer.id!)).toEqual([]);
    expect(storage.reviews.open()).toEqual([]);
    // The caller decides whether the replaced memory comes back; the repository leaves it as it was.
    expect(storage.memories.get(older.id!)?.deletedAt).not.toBeNull();
    expect(storage.memories.get(kept.id!)?.deletedAt).toBeNull();
  });
});
