import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { supersessionCandidates } from "../../src/memory/lifecycle/supersessionCandidates.js";
import { type TempHome, tempHome } from "../server/tempHome.js";

let temp: TempHome;
let cairn: Cairn;

beforeEach(() => {
  temp = tempHome();
  cairn = new Cairn({ home: temp.home, env: temp.env });
});

afterEach(() => {
  cairn.close();
  temp.cleanup();
});

describe("supersession candidates", () => {
  it("of a memory about a code-like name are the memories of its scope indexed under its subject keys", async () => {
    const [sibling] = await cairn.memories.remember([{ content: "`billing-api` listens on port 3000", scope: "app" }]);
    const [elsewhere] = await cairn.memories.remember([
      { content: "`billing-api` listens on port 3000", scope: "other" },
    ]);
    const [other] = await cairn.memories.remember([{ content: "`orders-api` listens on port 3000", scope: "app" }]);
    // The memory being revised, as it reads before its own revise replaces the sibling.
    const newer = {
      ...cairn.memories.get(sibling!.id!)!,
      id: 1_000_000,
      content: "billing-api listens on port 8080",
    };
    const keyword = vi.spyOn(cairn.storage.search, "keyword");
    const ids = supersessionCandidates(cairn.storage, newer).map((m) => m.id);
    expect(ids).toEqual([sibling?.id]);
    expect(ids).not.toContain(elsewhere?.id);
    expect(ids).not.toContain(other?.id);
    // The index answers: no keyword query over the store.
    expect(keyword).not.toHaveBeenCalled();
  });

  it("of a memory about a code-like name that says it is a change include its keyword matches in its scope", async () => {
    const [worded] = await cairn.memories.remember([
      { content: "The tile renderer image runs Ruby 3.1.", scope: "app" },
    ]);
    const [elsewhere] = await cairn.memories.remember([
      { content: "The tile renderer image runs Ruby 3.1.", scope: "other" },
    ]);
    const newer = {
      ...cairn.memories.get(worded!.id!)!,
      id: 1_000_000,
      content: "tile-renderer was upgraded to Ruby 3.3; the image ships it now.",
    };
    const ids = supersessionCandidates(cairn.storage, newer).map((m) => m.id);
    expect(ids).toContain(worded?.id);
    expect(ids).not.toContain(elsewhere?.id);
  });

  it("of a memory that names nothing code-like include those sharing an entity, even when keyword search finds nothing", async () => {
    const [sibling] = await cairn.memories.remember([{ content: "Billing listens on port 3000", scope: "app" }]);
    const [newer] = await cairn.memories.remember([{ content: "Billing listens on port 8080", scope: "app" }]);
    const keyword = vi.spyOn(cairn.storage.search, "keyword").mockReturnValue([]);
    const entities = vi.spyOn(cairn.storage.graph, "memoriesMentioning");
    supersessionCandidates(cairn.storage, cairn.memories.get(newer!.id!)!);
    expect(keyword).toHaveBeenCalled();
    expect(entities).toHaveBeenCalled();
    expect(sibling).toBeDefined();
  });

  it("leave out superseded memories", async () => {
    const [old] = await cairn.remember({ content: "The API listens on port 3000 locally", scope: "app" });
    await cairn.remember({ content: "The API listens on port 8080 locally", scope: "app" });
    const [latest] = await cairn.memories.remember([{ content: "The API listens on port 9090 locally", scope: "app" }]);
    const ids = supersessionCandidates(cairn.storage, cairn.memories.get(latest!.id!)!).map((m) => m.id);
    expect(ids).not.toContain(old?.id);
    expect(ids).toHaveLength(1);
  });
});

describe("clearing a scope", () => {
  it("removes the transcripts pushed with its memories", async () => {
    await cairn.remember({
      content: "Deploys go through staging",
      scope: "app",
      sessionKey: "s1",
      transcript: "user: deploy",
    });
    await cairn.remember({
      content: "Deploys go through staging",
      scope: "keep",
      sessionKey: "s2",
      transcript: "user: keep",
    });
    cairn.storage.erase.scopes(["app"]);
    expect([...cairn.storage.transcripts.transcripts(["s1", "s2"]).keys()]).toEqual(["s2"]);
  });
});
