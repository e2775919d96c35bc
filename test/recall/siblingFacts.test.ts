import { describe, expect, it } from "vitest";
import { openCairn } from "../../src/index.js";
import { tempDir } from "../helpers/tempDir.js";

/** The same statement made about several things, one after another: siblings, not updates. */
const SIBLINGS = [
  "Service auth listens on port 4003",
  "Service billing listens on port 4005",
  "The orders service listens on port 4010",
  "The search service listens on port 4011",
];

async function top(memories: string[], query: string): Promise<string | undefined> {
  const cairn = openCairn({ home: tempDir("cairn-siblings-"), env: {}, config: { "llm.provider": "offline" } });
  try {
    for (const [day, content] of memories.entries())
      await cairn.remember({
        content,
        scope: "global",
        occurredAt: new Date(Date.UTC(2026, 9, 1 + day)).toISOString(),
      });
    return (await cairn.recall({ query, scope: "global" })).results[0]?.content;
  } finally {
    cairn.close();
  }
}

describe("recency between sibling facts", () => {
  it("answers about the thing the question names, not the newest statement of the same shape", async () => {
    expect(await top(SIBLINGS, "which port does the orders service listen on")).toBe(SIBLINGS[2]);
    expect(await top(SIBLINGS, "what port is the auth service on")).toBe(SIBLINGS[0]);
  });

  it("still puts the newer first when one tool replaced another of its kind, even when the question names the old one", async () => {
    const changed = ["Install dependencies with npm install", "Install dependencies with pnpm install"];
    expect(await top(changed, "how do I install dependencies with npm")).toBe(changed[1]);
    const ports = ["The API listens on port 3000", "The API listens on port 8080"];
    expect(await top(ports, "which port does the API listen on")).toBe(ports[1]);
  });
});
