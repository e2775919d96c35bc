import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Cairn, openCairn } from "../../../src/index.js";
import { forgetLine } from "../../../src/memory/documents/describeIngest.js";
import { paragraphs } from "../../helpers/documentText.js";
import { removeTempDirs, tempDir } from "../../helpers/tempDir.js";

const TOKEN = "ghp_R7kW2pQ9xZ4mN8vB3cL6tY1hJ5gF0dS2aE7u";

describe("cairn ingest (library)", () => {
  let dir: string;
  let cairn: Cairn;

  beforeEach(() => {
    dir = tempDir("cairn-ingest-");
    cairn = openCairn({
      home: join(dir, "home"),
      env: {},
      importLanes: false,
      config: {
        "llm.provider": "offline",
        "workers.documents.chunkSize": 300,
        "workers.documents.chunkOverlap": 40,
        "workers.documents.maxContentBytes": 4096,
      },
    });
  });
  afterEach(() => {
    cairn.close();
    removeTempDirs();
  });

  const file = (name: string, text: string | Buffer) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const rows = (table: string) =>
    (cairn.storage.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  const liveChunks = () =>
    cairn.storage.db
      .prepare("SELECT id, content, ref FROM memories WHERE type = 'document_chunk' AND deleted_at IS NULL ORDER BY id")
      .all() as Array<{ id: number; content: string; ref: string }>;

  it("goes through extracting, chunking, embedding, indexing and done, each status stored as it is reached", async () => {
    const path = file("deploy.md", `# Deploy handbook\n\n${paragraphs(["staging", "rollback", "canary"])}`);
    const seen: Array<{ reported: string; stored: string | undefined }> = [];
    const report = await cairn.ingest(
      { path, cwd: dir },
      {
        onStatus: ({ id, status }) => seen.push({ reported: status, stored: cairn.storage.documents.get(id)?.status }),
      },
    );
    expect(seen.map((step) => step.reported)).toEqual(["extracting", "chunking", "embedding", "indexing", "done"]);
    // Visible to any reader (`cairn documents`, another process) while it runs.
    for (const step of seen) expect(step.stored).toBe(step.reported);
    const [document] = report.documents;
    expect(document).toMatchObject({ title: "Deploy handbook", status: "done", removed: 0 });
    expect(document!.transitions).toEqual(["extracting", "chunking", "embedding", "indexing", "done"]);
    expect(document!.chunks).toBeGreaterThan(2);
    expect(cairn.documents({ cwd: dir })).toMatchObject([
      { id: document!.id, status: "done", chunkCount: document!.chunks },
    ]);
    const chunks = liveChunks();
    expect(chunks).toHaveLength(document!.chunks);
    for (const chunk of chunks) expect(chunk.content.length).toBeLessThanOrEqual(300);
    // The job ran on the one queue and is done.
    expect(cairn.storage.jobs.get("document_ingest", String(document!.id))?.status).toBe("succeeded");
  });

  it("recall finds a chunk labelled with its document; a session's start does not list chunks as remembered", async () => {
    const path = file("deploy.md", `# Deploy handbook\n\n${paragraphs(["staging", "rollback", "canary"])}`);
    const { documents } = await cairn.ingest({ path, cwd: dir });
    const { results } = await cairn.recall({ query: "rollback procedure review", cwd: dir });
    const hit = results.find((result) => result.type === "document_chunk");
    expect(hit?.content).toContain("rollback");
    expect(hit?.ref).toBe(`document #${documents[0]!.id} "Deploy handbook" (${path})`);
    await cairn.remember({ content: "we deploy on Tuesdays", cwd: dir });
    const injected = cairn.inject(dir).text;
    expect(injected).toContain("we deploy on Tuesdays");
    expect(injected).not.toContain("needs a review before release");
  });

  it("clearing the project's memory takes its documents and their stored text along", async () => {
    await cairn.ingest({ path: file("deploy.md", paragraphs(["staging"])), cwd: dir });
    await cairn.ingest({ content: "a note kept as text", title: "note", cwd: dir });
    cairn.clearMemory({ cwd: dir });
    expect(cairn.documents({ cwd: dir })).toEqual([]);
    expect([rows("documents"), rows("document_memories"), rows("memories")]).toEqual([0, 0, 0]);
  });

  it("leaves a document queued, said so, while another process holds the one ingest lease", async () => {
    const busy = (await cairn.ingest({ content: "first", title: "first", cwd: dir })).documents[0]!;
    cairn.storage.jobs.enqueue({ kind: "document_ingest", key: String(busy.id), force: true });
    const [held] = cairn.storage.jobs.claim({ kind: "document_ingest", limit: 1 });
    expect(held).toBeDefined();
    const report = await cairn.ingest({ path: file("later.md", paragraphs(["staging"])), cwd: dir });
    expect(report.documents).toEqual([]);
    expect(report.queued).toHaveLength(1);
    expect(cairn.documents({ cwd: dir }).find((document) => document.id === report.queued[0])?.status).toBe("queued");
  });

  it("an export leaves the chunks out (the document is ingested again where it is imported)", async () => {
    await cairn.remember({ content: "we deploy on Tuesdays", cwd: dir });
    await cairn.ingest({ path: file("deploy.md", paragraphs(["staging"])), cwd: dir });
    const exported = cairn.exportMemories({ cwd: dir, all: true });
    expect(exported.memories.map((memory) => memory.content)).toEqual(["we deploy on Tuesdays"]);
  });

  it("ingesting the same file twice adds nothing; an edited file writes only its changed chunks and forgets the dropped ones", async () => {
    const path = file("notes.md", paragraphs(["staging", "rollback", "canary", "hotfix"]));
    const first = (await cairn.ingest({ path, cwd: dir })).documents[0]!;
    const before = liveChunks();
    const again = (await cairn.ingest({ path, cwd: dir })).documents[0]!;
    expect(again).toMatchObject({ id: first.id, added: 0, removed: 0, kept: first.chunks });
    expect(liveChunks()).toEqual(before);
    expect(rows("documents")).toBe(1);
    // A chunk the user forgot stays forgotten when the same text comes again: it is the document's already.
    cairn.forgetMemory({ id: before[0]!.id });
    expect((await cairn.ingest({ path, cwd: dir })).documents[0]).toMatchObject({ added: 0 });
    expect(liveChunks()).toEqual(before.slice(1));

    writeFileSync(path, paragraphs(["staging", "rollback", "canary", "freeze"]));
    const edited = (await cairn.ingest({ path, cwd: dir })).documents[0]!;
    expect(edited.id).toBe(first.id);
    expect(edited.added).toBeGreaterThan(0);
    expect(edited.removed).toBeGreaterThan(0);
    expect(edited.kept).toBeGreaterThan(0);
    const after = liveChunks();
    expect(after.length).toBe(edited.chunks - 1);
    expect(after.some((chunk) => chunk.content.includes("freeze"))).toBe(true);
    expect(after.some((chunk) => chunk.content.includes("hotfix"))).toBe(false);
    // The unchanged chunks kept their memories (same ids).
    const keptIds = before
      .slice(1)
      .filter((chunk) => !chunk.content.includes("hotfix"))
      .map((chunk) => chunk.id);
    for (const id of keptIds.slice(0, 2)) expect(after.map((chunk) => chunk.id)).toContain(id);
    expect(cairn.document({ id: first.id }).chunks.filter((chunk) => !chunk.deleted)).toHaveLength(after.length);
  });

  it("an edit near the top replaces only the chunks it touched: every later chunk keeps its memory", async () => {
    const subjects = ["staging", "rollback", "canary", "hotfix", "freeze", "audit", "backup", "restore"];
    const path = file("handbook.md", `# Handbook\n\n${paragraphs(subjects)}`);
    const first = (await cairn.ingest({ path, cwd: dir })).documents[0]!;
    expect(first.chunks).toBeGreaterThan(4);
    const before = liveChunks();
    writeFileSync(path, `# Handbook\n\n${paragraphs(subjects).replace("staging needs", "staging always needs")}`);
    const edited = (await cairn.ingest({ path, cwd: dir })).documents[0]!;
    expect(edited.added).toBeGreaterThanOrEqual(1);
    expect(edited.added).toBeLessThanOrEqual(2);
    expect(edited.removed).toBeLessThanOrEqual(2);
    expect(edited.kept).toBe(edited.chunks - edited.added);
    const after = new Set(liveChunks().map((chunk) => chunk.id));
    expect(before.filter((chunk) => after.has(chunk.id)).length).toBeGreaterThanOrEqual(before.length - 2);
    expect(before.find((chunk) => chunk.content.includes("restore"))?.id).toSatisfy((id: number) => after.has(id));
  });

  it("forgetting a document tombstones its chunks, except one another live document shares", async () => {
    const shared = paragraphs(["staging"]);
    const a = (await cairn.ingest({ path: file("a.md", shared), cwd: dir })).documents[0]!;
    const b = (await cairn.ingest({ content: shared, title: "shared note", cwd: dir })).documents[0]!;
    expect(b).toMatchObject({ chunks: 1, added: 0 });
    const c = (await cairn.ingest({ path: file("c.md", paragraphs(["rollback", "canary"])), cwd: dir })).documents[0]!;
    const found = async (query: string, word: string) =>
      (await cairn.recall({ query, cwd: dir })).results.some(
        (result) => result.type === "document_chunk" && result.content.includes(word),
      );

    expect(cairn.forgetDocument({ id: a.id }).forgotten).toBe(0);
    expect(await found("staging procedure review", "staging")).toBe(true);
    expect(cairn.forgetDocument({ id: b.id }).forgotten).toBe(1);
    expect(await found("staging procedure review", "staging")).toBe(false);

    expect(cairn.forgetDocument({ id: c.id }).forgotten).toBe(c.chunks);
    expect(await found("rollback procedure review", "rollback")).toBe(false);
    expect(cairn.documents({ cwd: dir })).toEqual([]);
    // Each chunk's history says why it went.
    const gone = cairn.document({ id: c.id }).chunks[0]!;
    expect(gone.deleted).toBe(true);
    expect(cairn.memoryHistory({ id: gone.memoryId }).events.at(-1)).toMatchObject({
      event: "deleted",
      reason: `forgotten with document #${c.id}`,
    });
    expect(() => cairn.forgetDocument({ id: c.id })).toThrow(`no document #${c.id}`);
    // Ingested again after forgetting, it is a new document.
    const again = (await cairn.ingest({ path: file("c.md", paragraphs(["rollback", "canary"])), cwd: dir }))
      .documents[0]!;
    expect(again.id).not.toBe(c.id);
    expect(await found("rollback procedure review", "rollback")).toBe(true);
  });

  it("a chunk two documents hold outlives the one that cited it, cited under the other from then on", async () => {
    const shared = paragraphs(["staging"]);
    const a = (await cairn.ingest({ path: file("a.md", shared), cwd: dir })).documents[0]!;
    const b = (await cairn.ingest({ content: shared, title: "shared note", cwd: dir })).documents[0]!;
    const [chunk] = liveChunks();
    // One memory for the text, cited under the document that brought it first.
    expect(liveChunks()).toHaveLength(1);
    expect(chunk!.ref).toMatch(new RegExp(`^document #${a.id} `));
    const citation = async () =>
      (await cairn.recall({ query: "staging procedure review", cwd: dir })).results.find(
        (result) => result.type === "document_chunk",
      );

    const forgotten = cairn.forgetDocument({ id: a.id });
    expect(forgotten).toMatchObject({ forgotten: 0, kept: 1 });
    expect(forgetLine(forgotten)).toBe(
      `forgot document #${a.id} (${dir}/a.md): 0 chunks tombstoned; 1 chunk kept: another document holds it`,
    );
    const hit = await citation();
    expect(hit?.id).toBe(chunk!.id);
    expect(hit?.ref).toBe(`document #${b.id} "shared note" (text: shared note)`);
    expect(cairn.storage.memories.get(chunk!.id)?.why).toBe("ingested from text: shared note");
    // The forgotten document no longer claims it; the one that holds it does.
    expect(cairn.document({ id: a.id }).chunks).toEqual([]);
    expect(cairn.document({ id: b.id }).chunks).toMatchObject([{ memoryId: chunk!.id, deleted: false }]);

    expect(cairn.forgetDocument({ id: b.id })).toMatchObject({ forgotten: 1, kept: 0 });
    expect(await citation()).toBeUndefined();
  });

  it("a chunk restored after its document was forgotten is cited under the next document that holds it", async () => {
    const shared = paragraphs(["staging"]);
    const a = (await cairn.ingest({ content: shared, title: "first", cwd: dir })).documents[0]!;
    const [chunk] = liveChunks();
    cairn.forgetDocument({ id: a.id });
    cairn.restoreMemory({ id: chunk!.id });
    // Restored by hand, it still cites the document it came with.
    expect(liveChunks()[0]!.ref).toMatch(new RegExp(`^document #${a.id} `));
    const b = (await cairn.ingest({ content: shared, title: "second", cwd: dir })).documents[0]!;
    expect(b).toMatchObject({ added: 0, chunks: 1 });
    expect(liveChunks()).toEqual([
      { id: chunk!.id, content: chunk!.content, ref: `document #${b.id} "second" (text: second)` },
    ]);
    // A live document that holds it keeps it: a third one does not take the citation over.
    await cairn.ingest({ content: shared, title: "third", cwd: dir });
    expect(liveChunks()[0]!.ref).toMatch(new RegExp(`^document #${b.id} `));
  });

  it("an edit that drops a chunk another document holds leaves it to that document, cited under it", async () => {
    const path = file("a.md", paragraphs(["staging"]));
    const a = (await cairn.ingest({ path, cwd: dir })).documents[0]!;
    const b = (await cairn.ingest({ content: paragraphs(["staging"]), title: "staging note", cwd: dir })).documents[0]!;
    expect(b).toMatchObject({ chunks: 1, added: 0 });
    const staging = liveChunks().find((chunk) => chunk.content.includes("staging"))!;
    expect(staging.ref).toMatch(new RegExp(`^document #${a.id} `));

    writeFileSync(path, paragraphs(["rollback", "canary"]));
    expect((await cairn.ingest({ path, cwd: dir })).documents[0]).toMatchObject({ removed: 0 });
    const after = liveChunks();
    expect(after.find((chunk) => chunk.id === staging.id)?.ref).toBe(
      `document #${b.id} "staging note" (text: staging note)`,
    );
    // A's own chunks still cite A.
    for (const chunk of after.filter((chunk) => chunk.id !== staging.id))
      expect(chunk.ref).toMatch(new RegExp(`^document #${a.id} `));
  });

  it("redacts a secret in the stored chunks, whichever chunk it falls in", async () => {
    const path = file(
      "creds.md",
      `${paragraphs(["staging"])}\nuse token ${TOKEN} for the registry\n${paragraphs(["rollback"])}`,
    );
    await cairn.ingest({ path, cwd: dir });
    const stored = liveChunks()
      .map((chunk) => chunk.content)
      .join("\n");
    expect(stored).toContain("for the registry");
    expect(stored).not.toContain("R7kW2pQ9");
    const everything = cairn.storage.db
      .prepare("SELECT group_concat(coalesce(new_content, ''), ' ') AS t FROM memory_history")
      .get() as { t: string };
    expect(everything.t).not.toContain("R7kW2pQ9");
  });

  it.each([
    [
      "a binary file named .txt",
      "image.txt",
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
      /binary, not text/,
    ],
    ["text that is not UTF-8", "latin.md", Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0xff, 0xfe]), /binary, not text/],
    [
      "a file over maxContentBytes",
      "big.md",
      "a ".repeat(3000),
      /6000 bytes, over workers\.documents\.maxContentBytes \(4096\)/,
    ],
    ["a file of another kind", "photo.png", "not really a png", /not a document file/],
    ["JSON that does not parse", "data.json", '{"a": 1,', /not valid JSON/],
  ])("refuses %s with one error and stores nothing", async (_what, name, content, message) => {
    const path = file(name, content);
    const error = await cairn.ingest({ path, cwd: dir }).catch((caught: unknown) => caught as Error);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message.split("\n")).toHaveLength(1);
    expect(rows("documents")).toBe(0);
    expect(rows("document_memories")).toBe(0);
    expect(rows("memories")).toBe(0);
  });

  it("keeps the version ingested before when the file turns bad, and says so", async () => {
    const path = file("notes.md", paragraphs(["staging", "rollback"]));
    const first = (await cairn.ingest({ path, cwd: dir })).documents[0]!;
    writeFileSync(path, Buffer.from([0, 1, 2, 3]));
    await expect(cairn.ingest({ path, cwd: dir })).rejects.toThrow(
      `the version ingested before is kept (document #${first.id})`,
    );
    expect(liveChunks()).toHaveLength(first.chunks);
    expect(cairn.documents({ cwd: dir })[0]).toMatchObject({ status: "done", error: expect.stringMatching(/binary/) });
  });

  it("ingests every Markdown, text and JSON file of a folder, and lists the ones it refused", async () => {
    file("a.md", paragraphs(["staging"]));
    file("b.txt", paragraphs(["rollback"]));
    file("c.json", JSON.stringify({ canary: "canary procedure needs a review" }));
    file("d.txt", Buffer.from([0, 0, 0]));
    file("skip.png", "x");
    const report = await cairn.ingest({ path: dir, cwd: dir });
    expect(report.documents.map((document) => document.source.split("/").at(-1))).toEqual(["a.md", "b.txt", "c.json"]);
    expect(report.failed).toHaveLength(1);
    expect(report.failed[0]!.error).toMatch(/d\.txt is binary/);
    expect(rows("documents")).toBe(3);
  });
});
