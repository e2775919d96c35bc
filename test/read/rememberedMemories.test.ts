import { describe, expect, it } from "vitest";
import { rememberedFrom } from "../../src/read/rememberedMemories.js";
import { keptMemoryLines, rememberedLine } from "../../src/read/rememberedSource.js";
import { FACT_PIPELINE_WHO } from "../../src/store/contracts/memories.js";
import { makeStore } from "../memory/storeFixture.js";

describe("the remembered memories of a session's scopes", () => {
  it("merges the project's keys newest first, leaves out extracted, superseded and forgotten ones", async () => {
    const { store, advance } = makeStore();
    const write = async (content: string, scope: string, extra: { who?: string; occurredAt?: number } = {}) => {
      advance(1000);
      const [outcome] = await store.remember([{ content, scope, who: "user", ...extra }]);
      return outcome!.id!;
    };
    const identity = await write("Run the linter before every commit", "path:/work/app");
    const moved = await write("Deploys go through the staging cluster first", "git:example.com/acme/app");
    const said = await write("Release notes are written in the past tense", "path:/work/app", {
      occurredAt: 1_600_000_000_000,
    });
    await write("Tests run with vitest", "path:/work/app", { who: FACT_PIPELINE_WHO });
    const replaced = await write("The staging cluster runs in eu-west-1", "git:example.com/acme/app");
    const replacement = await write("The staging cluster now runs in eu-central-1", "git:example.com/acme/app");
    store.supersede(replaced, replacement);
    const forgotten = await write("Ask Dana before touching billing", "path:/work/app");
    store.forget(forgotten);
    await write("Reply in English", "global");
    await write("Unrelated project's rule", "path:/work/other");

    const read = rememberedFrom(store.storage, {
      project: ["path:/work/app", "git:example.com/acme/app"],
      global: ["global"],
      limit: 10,
    });
    // Ordered by when said, else when stored: the memory said long ago comes last.
    expect(read.project.memories.map((m) => m.id)).toEqual([replacement, moved, identity, said]);
    expect(read.project.more).toBe(false);
    expect(read.global.memories.map((m) => m.content)).toEqual(["Reply in English"]);

    const capped = rememberedFrom(store.storage, {
      project: ["path:/work/app", "git:example.com/acme/app"],
      global: ["global"],
      limit: 2,
    });
    expect(capped.project.memories.map((m) => m.id)).toEqual([replacement, moved]);
    expect(capped.project.more).toBe(true);
    expect(capped.global.more).toBe(false);
  });

  it("renders one line per memory and counts the lines a cut kept whole", () => {
    const line = rememberedLine({
      id: 7,
      type: "decision",
      content: "Use\r\npnpm\u2028everywhere",
      occurredAt: null,
      createdAt: Date.UTC(2026, 5, 10, 12),
    });
    expect(line).toBe("- #7 (2026-06-10, decision) Use pnpm everywhere");
    const text = [line, "- #6 (2026-06-09) Second", "[only the 2 newest are listed; recall finds older ones]"].join(
      "\n",
    );
    expect(keptMemoryLines(text, text.length)).toBe(2);
    expect(keptMemoryLines(text, line.length)).toBe(1);
    expect(keptMemoryLines(text, line.length - 1)).toBe(0);
  });
});
