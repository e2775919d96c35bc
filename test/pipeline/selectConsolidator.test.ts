import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.js";
import { selectConsolidator } from "../../src/pipeline/phase2/selectConsolidator.js";
import { CairnError } from "../../src/util/errors.js";
import { FakeLlm } from "../helpers/fakeLlm.js";

const configWith = (mode: string) => loadConfig({ env: {}, overrides: { "consolidation.mode": mode } });

describe("selectConsolidator", () => {
  const model = new FakeLlm({ name: "fake", model: "small" });

  it.each([
    // mode, small model configured, consolidator chosen, small model asked for
    ["offline", true, "offline", false],
    ["offline", false, "offline", false],
    ["agent", true, "agent", false],
    ["agent", false, "agent", false],
    ["llm", true, "llm", true],
    ["auto", true, "llm", true],
    ["auto", false, "offline", true],
  ] as const)("mode %s, model %s -> %s", async (mode, hasModel, chosen, asked) => {
    let askedForModel = false;
    const consolidator = await selectConsolidator(configWith(mode), async () => {
      askedForModel = true;
      return hasModel ? model : null;
    });
    expect(consolidator.mode).toBe(chosen);
    expect(askedForModel).toBe(asked);
  });

  it("mode llm without a model fails with a no_provider error that points to cairn doctor", async () => {
    const attempt = selectConsolidator(configWith("llm"), async () => null);
    await expect(attempt).rejects.toBeInstanceOf(CairnError);
    await expect(attempt).rejects.toMatchObject({
      code: "no_provider",
      message: expect.stringContaining("cairn doctor"),
    });
  });
});
