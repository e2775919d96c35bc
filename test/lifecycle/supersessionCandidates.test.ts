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
  it("include the live memories of the scope sharing an entity, even when keyword search finds nothing", async () => {
    const [sibling] = await cairn.memories.remember([{ content: "`billing-api` listens on port 3000", scope: "app" }]);
    const [elsewhere] = await cairn.memories.remember([
      { content: "`billing-api` listens on port 3000", scope: "other" },
    ]);
    const [newer] = await cairn.memories.remember([{ content: "`billing-api` listens on port 8080", scope: "app" }]);
    const keyword = vi.spyOn(cairn.storage.search, "keyword").mockReturnValue([]);
    const ids = supersessionCandidates(cairn.storage, cairn.memories.get(newer!.id!)!).map((m) => m.id);
    expect(keyword).toHaveBeenCalled();
    expect(ids).toEqual([sibling?.id]);
    expect(ids).not.toContain(elsewhere?.id);
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
