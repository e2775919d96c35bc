import { describe, expect, it } from "vitest";
import { configSchema } from "../../../src/config/schema.js";
import { runRetention } from "../../../src/memory/retention/runRetention.js";
import { DAY_MS } from "../../../src/util/clock.js";
import { useDocumentsCairn } from "../../helpers/documentsCairn.js";
import { paragraphs } from "../../helpers/documentText.js";

// A document's chunk count (`cairn documents`, its GET) is how many chunks it holds: a chunk erased for
// good (memory purge, retention's purge of a forgotten chunk) leaves the count with it.

describe("a document's chunk count", () => {
  const home = useDocumentsCairn();

  async function ingest(): Promise<{ id: number; chunks: number[] }> {
    const content = paragraphs(["staging", "rollback", "canary"]);
    const [document] = (await home.cairn.ingest({ content, title: "Deploy handbook", scope: "global" })).documents;
    const chunks = home.cairn.document({ id: document!.id }).chunks.map((link) => link.memoryId);
    expect(chunks.length).toBe(3);
    expect(home.cairn.document({ id: document!.id }).chunkCount).toBe(3);
    return { id: document!.id, chunks };
  }

  /** What `cairn documents` lists and what the document's own view says, with its chunks. */
  const seen = (id: number) => {
    const document = home.cairn.document({ id });
    const listed = home.cairn.documents({ scope: "global" }).find((row) => row.id === id);
    return { count: document.chunkCount, listed: listed?.chunkCount, chunks: document.chunks.length };
  };

  it("drops by one when one of its chunks is purged, by id or by its text", async () => {
    const { id, chunks } = await ingest();
    home.cairn.purgeMemory({ id: chunks[1]! });
    expect(seen(id)).toEqual({ count: 2, listed: 2, chunks: 2 });
    home.cairn.purgeMemory({ text: "canary needs a review" });
    expect(seen(id)).toEqual({ count: 1, listed: 1, chunks: 1 });
  });

  it("drops when retention purges a chunk forgotten by itself, and counts it until then", async () => {
    const { id, chunks } = await ingest();
    home.cairn.forgetMemory({ id: chunks[0]! });
    // Forgotten, not gone: restore can bring it back, and the document still holds it.
    expect(seen(id)).toEqual({ count: 3, listed: 3, chunks: 3 });
    const now = home.advance(31 * DAY_MS);
    const report = runRetention({
      storage: home.cairn.storage,
      settings: configSchema().parse({}).workers.retention,
      now,
    });
    expect(report).toMatchObject({ memories: 1 });
    expect(seen(id)).toEqual({ count: 2, listed: 2, chunks: 2 });
  });
});
