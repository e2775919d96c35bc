import { describe, expect, it } from "vitest";
import { printPhase1 } from "../../src/cli/commands/extract.js";
import { type Invocation, withInvocation } from "../../src/cli/invocation.js";
import type { Phase1Report } from "../../src/pipeline/phase1/runPhase1.js";

async function printed(report: Phase1Report): Promise<string> {
  let out = "";
  const context = {
    cwd: "/",
    env: {},
    stdout: (text: string) => (out += text),
    stderr: () => {},
  } as unknown as Invocation;
  await withInvocation(context, async () => printPhase1(report));
  return out;
}

const base: Phase1Report = {
  generator: "openai:model",
  pending: { eligible: 0 } as Phase1Report["pending"],
  waiting: 0,
  jobs: [],
  budgetExhausted: false,
};

describe("cairn extract's report", () => {
  it("a dry run lists the calls of a session too long for one, and the fact threshold the prompt states", async () => {
    const window = (itemFrom: number, itemTo: number, omitted: number) => ({
      itemFrom,
      itemTo,
      entries: itemTo - itemFrom + 1 - omitted,
      omitted,
      tokens: 20_000,
    });
    const out = await printed({
      ...base,
      minFactConfidence: 0.7,
      dryRun: [
        {
          sessionId: "s-long",
          agent: "omp",
          cwd: "/srv/tui",
          items: 1096,
          tokens: 40_000,
          omitted: 300,
          windows: [window(1, 600, 200), window(601, 1096, 100)],
        },
      ],
    });
    expect(out).toContain("s-long: 2 calls, each with the memory of the ones before it");
    expect(out).toContain("  1. items 1 to 600: 400 sent, 200 left out, 20000 tokens");
    expect(out).toContain("  2. items 601 to 1096: 396 sent, 100 left out, 20000 tokens");
    expect(out).toContain("under 0.7 (pipeline.minFactConfidenceForWrite)");
  });

  it("a run says how many facts fell under the confidence threshold", async () => {
    const out = await printed({ ...base, facts: { outputs: 2, written: 5, belowThreshold: 3, failed: 0, errors: [] } });
    expect(out).toContain("3 fact(s) under pipeline.minFactConfidenceForWrite not stored as memories");
  });
});
