import { describe, expect, it } from "vitest";
import type { HistoryEvent } from "../../../src/store/types/memoryRecord.js";
import { useDocumentsCairn } from "../../helpers/documentsCairn.js";
import { paragraphs } from "../../helpers/documentText.js";

// A chunk two documents share is cited under one of them; when that one lets it go (forgotten, or an
// edit drops the passage) or a restored chunk is found again in another, the citation moves, and the
// chunk's history (`cairn memory history`, the UI) says so: a `moved` event naming both documents.

describe("a shared chunk's citation moving to another document", () => {
  const home = useDocumentsCairn();

  const ingest = async (content: string, title: string) =>
    (await home.cairn.ingest({ content, title, scope: "global" })).documents[0]!;
  const moves = (memoryId: number): HistoryEvent[] =>
    home.cairn.memoryHistory({ id: memoryId }).events.filter((event) => event.event === "moved");
  const chunkOf = (documentId: number, word: string): number => {
    const links = home.cairn.document({ id: documentId }).chunks;
    const link = links.find((chunk) => home.cairn.memories.get(chunk.memoryId)?.content.includes(word));
    if (!link) throw new Error(`document #${documentId} has no chunk about ${word}`);
    return link.memoryId;
  };

  it("is recorded when the document it was cited under is forgotten, by whom and why", async () => {
    const a = await ingest(paragraphs(["staging", "rollback"]), "handbook");
    const b = await ingest(paragraphs(["rollback", "canary"]), "runbook");
    const shared = chunkOf(a.id, "rollback");
    expect(chunkOf(b.id, "rollback")).toBe(shared);
    expect(moves(shared)).toEqual([]);

    const now = home.advance(60_000);
    home.cairn.forgetDocument({ id: a.id, reason: "replaced by the runbook" }, { who: "agent:codex" });
    const [moved, ...more] = moves(shared);
    expect(more).toEqual([]);
    expect(moved).toMatchObject({
      who: "agent:codex",
      createdAt: now,
      metadata: { fromDocument: a.id, toDocument: b.id },
    });
    expect(moved!.reason).toBe(
      `now cited under document #${b.id} "runbook" (text: runbook): document #${a.id} let it go (replaced by the runbook)`,
    );
    // The chunk only A held was forgotten, not moved.
    expect(moves(chunkOf(a.id, "staging"))).toEqual([]);
    // Forgetting B too moves nothing: no live document is left to cite it under.
    home.cairn.forgetDocument({ id: b.id });
    expect(moves(shared)).toHaveLength(1);
  });

  it("is recorded when an edit drops the passage from the document it was cited under", async () => {
    const a = await ingest(paragraphs(["staging", "rollback"]), "handbook");
    const b = await ingest(paragraphs(["rollback"]), "runbook");
    const shared = chunkOf(b.id, "rollback");
    await ingest(paragraphs(["staging", "canary"]), "handbook");
    expect(moves(shared)).toMatchObject([
      {
        metadata: { fromDocument: a.id, toDocument: b.id },
        reason: `now cited under document #${b.id} "runbook" (text: runbook): document #${a.id} let it go (no longer in the document)`,
      },
    ]);
  });

  it("is recorded when a chunk restored by hand is found in another document", async () => {
    const a = await ingest(paragraphs(["staging"]), "first");
    const chunk = chunkOf(a.id, "staging");
    home.cairn.forgetDocument({ id: a.id });
    home.cairn.restoreMemory({ id: chunk });
    const b = await ingest(paragraphs(["staging"]), "second");
    expect(moves(chunk)).toMatchObject([
      {
        metadata: { fromDocument: a.id, toDocument: b.id },
        reason: `now cited under document #${b.id} "second" (text: second): document #${a.id} no longer holds it`,
      },
    ]);
    // A third document that holds it takes nothing over: no move.
    await ingest(paragraphs(["staging"]), "third");
    expect(moves(chunk)).toHaveLength(1);
  });
});
