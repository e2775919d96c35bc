import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { Storage } from "../../src/store/storage.js";
import { sourceFiles } from "../helpers/sourceFiles.js";

const SRC = join(import.meta.dirname, "..", "..", "src");

/**
 * Files that write to the store but hold no text a user or a model supplied; each says why. Any other
 * file with an INSERT or UPDATE must import the guard (src/redact/guard.ts), so a new door is seen here.
 */
const NO_SUPPLIED_TEXT: Record<string, string> = {
  "store/repositories/metaRepository.ts": "watermarks and flags cairn computes",
  "store/migrations": "schema",
  "store/repositories/embeddingRepository.ts": "vectors keyed by a content hash",
  "store/vectorIndex.ts": "vectors",
  "store/repositories/tokenBudget.ts": "token counts",
  "store/salvageStore.ts": "copies rows of a damaged store, already guarded when first written",
  "store/dropErasedBytes.ts": "full-text index commands ('optimize'), no row text",
  "store/repositories/retentionRepository.ts": "deletes rows and lowers entities' mention counts, writes no text",
};

describe("every repository write path runs the guard", () => {
  it("finds the guard imported wherever the store is written", () => {
    const unguarded = sourceFiles(SRC)
      .map((path) => ({ path: relative(SRC, path), text: readFileSync(path, "utf8") }))
      .filter(({ path }) => !Object.keys(NO_SUPPLIED_TEXT).some((allowed) => path.startsWith(allowed)))
      .filter(({ text }) => /\b(INSERT\s+(OR\s+\w+\s+)?INTO|UPDATE\s+\w+\s+SET)\b/.test(text))
      .filter(({ text }) => !/from "(\.\.\/)+redact\/guard\.js"/.test(text))
      .map(({ path }) => path);
    expect(unguarded).toEqual([]);
  });

  it("guards what the repositories store, whoever calls them", () => {
    const storage = Storage.open(":memory:");
    const token = "ghp_R7kW2pQ9xZ4mN8vB3cL6tY1hJ5gF0dS2aE7u";
    storage.sessions.upsert({
      info: {
        id: "s1",
        agent: "codex",
        kind: "interactive",
        cwd: "/w",
        title: `deploy with ${token} <private>diary</private>`,
        git: { remote: `https://x-access-token:${token}@github.com/acme/app.git` },
        startedAt: 1,
        updatedAt: 1,
      },
      projectKey: null,
      sourcePath: null,
      now: 1,
    });
    storage.items.upsert(
      "s1",
      [{ key: "k1", role: "tool_call", text: `curl -H "token: ${token}"`, origin: { file: "f", line: 1 } }],
      0,
    );
    storage.sourceFiles.save({
      path: "/f",
      agent: "codex",
      size: 1,
      mtimeMs: 1,
      resume: { offset: 1, line: 1, state: { remote: `https://${token}@github.com/a/b` } },
      tailHash: null,
      sessionIds: ["s1"],
      problems: 0,
      scannedAt: 1,
    });
    storage.jobs.enqueue({ kind: "k", key: "1", payload: { note: `password=${"Tr0ub4dor-and-3-horses"}` } });
    storage.reviews.add({
      memoryId: 1,
      proposedContent: `use ${token}`,
      reason: `conflicts with ${token}`,
      detector: "syntactic",
      now: 1,
    });
    storage.transcripts.store({ sessionKey: "s1", content: `user: my token is ${token}`, project: null, now: 1 });
    const session = storage.sessions.get("s1");
    expect(session?.gitRemote).toBe("https://github.com/acme/app.git");
    expect(session?.title).toBe("deploy with [REDACTED:github-token] [REDACTED:private]");
    // The resumed read still names the project: the remote lost its credentials, not its host.
    expect(storage.sourceFiles.all().get("/f")?.resume?.state).toEqual({ remote: "https://github.com/a/b" });
    const dump = JSON.stringify([
      storage.db.prepare("SELECT * FROM items").all(),
      storage.db.prepare("SELECT * FROM source_files").all(),
      storage.db.prepare("SELECT * FROM jobs").all(),
      storage.db.prepare("SELECT * FROM memory_reviews").all(),
      storage.db.prepare("SELECT * FROM session_transcripts").all(),
    ]);
    expect(dump).not.toContain(token);
    expect(dump).not.toContain("Tr0ub4dor");
    storage.close();
  });
});
