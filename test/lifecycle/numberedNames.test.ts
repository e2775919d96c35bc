import { describe, expect, it } from "vitest";
import { openCairn } from "../../src/index.js";
import { tempDir } from "../helpers/tempDir.js";

/** A list of numbered things, each with its own value: what a user remembers about a fleet of services. */
const SERVICES = Array.from({ length: 12 }, (_, i) => `Service ${i + 1} listens on port ${4001 + i}`);

describe("memories about numbered things (service 3, worker 2)", () => {
  it("stores a list of them as it is: nothing superseded, nothing flagged, each found by its number", async () => {
    const cairn = openCairn({ home: tempDir("cairn-numbered-"), env: {}, config: { "llm.provider": "offline" } });
    try {
      for (const content of SERVICES) {
        const [outcome] = await cairn.remember({ content, scope: "fleet" });
        expect(outcome?.superseded).toBeUndefined();
      }
      // The same list remembered in one batch is compared within itself too.
      await cairn.remember(
        SERVICES.map((content) => ({ content: content.replace("Service", "Worker"), scope: "jobs" })),
      );
      expect(cairn.storage.reviews.open()).toEqual([]);
      expect(cairn.memories.counts()).toMatchObject({ live: 24, deleted: 0 });

      const top = async (query: string) => (await cairn.recall({ query, scope: "fleet" })).results[0]?.content;
      expect(await top("which port does service 3 listen on")).toBe(SERVICES[2]);
      expect(await top("service 7 port")).toBe(SERVICES[6]);

      // A new port for one of them replaces that one only.
      const [moved] = await cairn.remember({ content: "Service 3 listens on port 4100", scope: "fleet" });
      expect(moved?.superseded?.map((s) => s.content)).toEqual([SERVICES[2]]);
      expect(await top("which port does service 3 listen on")).toBe("Service 3 listens on port 4100");
    } finally {
      cairn.close();
    }
  });
});
