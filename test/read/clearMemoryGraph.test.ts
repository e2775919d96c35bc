import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { persistGraph } from "../../src/pipeline/facts/persistGraph.js";
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

const count = (table: string) =>
  (cairn.storage.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

describe("cairn memory clear --all", () => {
  it("leaves no entity, relation, mention or history row behind", async () => {
    const [outcome] = await cairn.remember({
      content: "Deploys run through `Terraform` on Hetzner Cloud",
      scope: "global",
    });
    persistGraph({
      db: cairn.storage.db,
      graph: cairn.memories.storage.graph,
      triples: [{ source: "Terraform", relationship: "deploys to", target: "Hetzner Cloud", confidence: 0.9 }],
      memoryIds: [outcome!.id!],
      now: 1,
    });
    // A fact the pipeline skipped is audited without a memory; its text is still the user's.
    cairn.memories.storage.history.add({
      memoryId: null,
      event: "fact_skipped",
      newContent: "The staging database is called orchid",
      metadata: { scope: "global" },
      now: 1,
    });
    expect(count("entities")).toBeGreaterThan(0);
    expect(count("relations")).toBeGreaterThan(0);

    cairn.clearMemory({ all: true });

    for (const table of [
      "memories",
      "memory_history",
      "entities",
      "relations",
      "memory_entity_mentions",
      "memory_hints",
    ]) {
      expect({ table, rows: count(table) }).toEqual({ table, rows: 0 });
    }
  });

  it("keeps the entities other projects' memories still mention when one project is cleared", async () => {
    await cairn.remember({ content: "Prefers `ripgrep` over grep", scope: "global" });
    await cairn.remember({ content: "This project builds with `ripgrep` and `Bazel`", cwd: temp.project });
    cairn.clearMemory({ cwd: temp.project });
    const names = (
      cairn.storage.db.prepare("SELECT canonical_name FROM entities").all() as Array<{ canonical_name: string }>
    ).map((row) => row.canonical_name);
    expect(names).toContain("ripgrep");
    expect(names).not.toContain("bazel");
  });
});
