import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type EveryDoor, openEveryDoor, runCliCaptured } from "../helpers/everyDoor.js";
import { callTool } from "../helpers/inProcessMcp.js";
import { type LoopbackServer, startLoopbackServer } from "../helpers/loopbackServer.js";

// Documents through every door: the CLI (a file), HTTP and MCP (a text with its title, a URL). The rules
// themselves (transitions, chunking, dedupe, forgetting, each refusal) are test/memory/documents/.

const TOKEN = "ghp_R7kW2pQ9xZ4mN8vB3cL6tY1hJ5gF0dS2aE7u";
const TEXT = `# Registry notes\n\nThe release registry needs a token: ${TOKEN} is the one for CI.\nPublishing happens on Thursdays after the freeze.`;

let door: EveryDoor;
let server: LoopbackServer;
beforeEach(async () => {
  door = await openEveryDoor("cairn-documents-test");
  server = await startLoopbackServer(() => ({ status: 200, headers: { "content-type": "text/plain" }, body: TEXT }));
});
afterEach(async () => {
  await server.close();
  await door.close();
});

const chunkTexts = () =>
  (
    door.cairn.storage.db.prepare("SELECT content FROM memories WHERE type = 'document_chunk'").all() as Array<{
      content: string;
    }>
  ).map((row) => row.content);
const rows = (table: string) =>
  (door.cairn.storage.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

const cli = (args: string[]) => runCliCaptured(door.temp.home, args);

const post = (path: string, body: unknown) =>
  door.app.request(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

describe("documents through every door", () => {
  it("cairn ingest prints each status as it is reached and stores the file's chunks redacted; documents lists and forgets it", async () => {
    const file = join(door.temp.project, "registry.md");
    writeFileSync(file, TEXT);
    const ingested = await cli(["ingest", file, "--scope", "docs"]);
    expect(ingested.code).toBe(0);
    expect(ingested.stdout.split("\n").slice(0, 5)).toEqual([
      "document #1: extracting",
      "document #1: chunking",
      "document #1: embedding",
      "document #1: indexing",
      "document #1: done",
    ]);
    expect(ingested.stdout).toContain("ingested #1 Registry notes into docs: 1 chunk (1 new, 0 kept, 0 removed)");
    const stored = chunkTexts().join("\n");
    expect(stored).toContain("Publishing happens on Thursdays");
    expect(stored).not.toContain("R7kW2pQ9");

    const listed = await cli(["documents", "--scope", "docs"]);
    expect(listed.stdout).toContain(`#1 done, 1 chunk: Registry notes (${file})`);
    const forgotten = await cli(["documents", "forget", "1"]);
    expect(forgotten.stdout).toContain("1 chunk tombstoned");
    expect((await cli(["documents", "--scope", "docs"])).stdout).toContain("no documents");
  });

  it("cairn ingest of a bad file prints one error line and stores nothing", async () => {
    const file = join(door.temp.project, "blob.txt");
    writeFileSync(file, Buffer.from([1, 0, 2, 0]));
    const result = await cli(["ingest", file]);
    expect(result.code).not.toBe(0);
    // One line says what went wrong (the first open of a fresh home may also say it tightened permissions).
    const lines = result.stderr
      .trim()
      .split("\n")
      .filter((line) => !line.includes("readable by you only"));
    expect(lines).toEqual([
      expect.stringMatching(/^cairn: ingest .*blob\.txt is binary, not text .*nothing was stored$/),
    ]);
    expect(rows("documents")).toBe(0);
  });

  it("HTTP ingests a text, redacted, lists it and forgets it; a path or a loopback URL is refused with nothing stored", async () => {
    const cwd = door.temp.project;
    const response = await post("/api/documents/ingest", { content: TEXT, title: "registry", cwd });
    expect(response.status).toBe(200);
    const report = (await response.json()) as { documents: Array<{ id: number; transitions: string[] }> };
    expect(report.documents[0]!.transitions).toEqual(["extracting", "chunking", "embedding", "indexing", "done"]);
    expect(chunkTexts().join("\n")).not.toContain("R7kW2pQ9");
    expect(chunkTexts().join("\n")).toContain("Publishing happens on Thursdays");
    const list = (await (await post("/api/documents", { cwd })).json()) as { documents: Array<{ who: string }> };
    expect(list.documents).toMatchObject([{ title: "registry", status: "done", who: "agent:http" }]);
    const forgotten = await post("/api/documents/forget", { id: report.documents[0]!.id });
    expect(await forgotten.json()).toMatchObject({ forgotten: 1 });

    const byPath = await post("/api/documents/ingest", { path: "/etc/hostname", cwd });
    expect(byPath.status).toBe(400);
    expect(await byPath.text()).toContain("path is read by the CLI only");
    const loopback = await post("/api/documents/ingest", { url: `${server.url}/notes`, cwd });
    expect(loopback.status).toBe(400);
    expect(await loopback.text()).toContain("loopback, link-local or private address");
    expect(server.requests).toHaveLength(0);
    expect(rows("documents")).toBe(1);
  });

  it("MCP ingests a text, redacted, lists it and forgets it; a refused URL is one tool error", async () => {
    const cwd = door.temp.project;
    const ingested = await callTool(door.client, "ingest_document", { content: TEXT, title: "registry", cwd });
    expect(ingested).toMatchObject({ isError: false });
    expect(ingested.text).toMatch(/^ingested #1 registry into .*: 1 chunk \(1 new, 0 kept, 0 removed\)$/);
    expect(chunkTexts().join("\n")).not.toContain("R7kW2pQ9");
    const listed = await callTool(door.client, "documents", { cwd });
    expect(listed.text).toContain("#1 done, 1 chunk: registry (text: registry)");
    const recalled = await callTool(door.client, "recall", { query: "when does publishing happen", cwd });
    expect(recalled.text).toContain("Publishing happens on Thursdays");
    expect(recalled.text).not.toContain("R7kW2pQ9");
    expect((await callTool(door.client, "forget_document", { id: 1 })).text).toBe(
      "forgot document #1 (text: registry): 1 chunk tombstoned",
    );
    const refused = await callTool(door.client, "ingest_document", { url: `${server.url}/notes`, cwd });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/loopback, link-local or private address.*nothing was stored$/);
    expect(rows("documents")).toBe(1);
  });

  it("forgetting a document over HTTP, MCP or the CLI keeps a chunk another document holds, cited under that one", async () => {
    const cwd = door.temp.project;
    const ingest = async (title: string) =>
      (
        (await (await post("/api/documents/ingest", { content: TEXT, title, cwd })).json()) as {
          documents: Array<{ id: number }>;
        }
      ).documents[0]!.id;
    const [first, second, third] = [await ingest("first"), await ingest("second"), await ingest("third")];
    const refOf = async () => {
      const recalled = await callTool(door.client, "recall", { query: "when does publishing happen", cwd });
      return /document #(\d+) /.exec(recalled.text)?.[1];
    };
    expect(await refOf()).toBe(String(first));

    expect(await (await post("/api/documents/forget", { id: first })).json()).toMatchObject({ forgotten: 0, kept: 1 });
    expect(await refOf()).toBe(String(second));
    expect((await callTool(door.client, "forget_document", { id: second })).text).toBe(
      `forgot document #${second} (text: second): 0 chunks tombstoned; 1 chunk kept: another document holds it`,
    );
    expect(await refOf()).toBe(String(third));
    expect((await cli(["documents", "forget", String(third)])).stdout).toContain(
      `forgot document #${third} (text: third): 1 chunk tombstoned`,
    );
    expect(await refOf()).toBeUndefined();
  });

  it("MCP asked for a path, or for none or two of url and content, says what the tool takes", async () => {
    const cwd = door.temp.project;
    const file = join(door.temp.root, "notes.md");
    writeFileSync(file, TEXT);
    for (const args of [{ path: file }, {}, { url: `${server.url}/notes`, content: TEXT, title: "both" }]) {
      const refused = await callTool(door.client, "ingest_document", { ...args, cwd });
      expect(refused.isError).toBe(true);
      expect(refused.text).toContain(
        "give a url, or the text as content with a title (exactly one; a file path is read by the CLI only: cairn ingest <file>)",
      );
      expect(refused.text).not.toContain("one of path, url or content");
    }
    expect(rows("documents")).toBe(0);
  });
});
