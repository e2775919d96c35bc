import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { chatAnswer, chatRequest, fakeModelConfig, quotedData } from "../helpers/fakeChatModel.js";
import { type LoopbackServer, startLoopbackServer } from "../helpers/loopbackServer.js";
import { runCli } from "../helpers/runCli.js";
import { tempDir } from "../helpers/tempDir.js";

/** The questions the fake model writes for a memory, picked by a word of the memory. */
function answerFor(content: string): string[] {
  if (content.includes("pnpm"))
    return ["Where does the third-party code come from?", "How are dependencies installed?"];
  return ["What does this note say?"];
}

describe("prospective hints through Cairn and a real OpenAI-compatible wire format", () => {
  let server: LoopbackServer;
  beforeAll(async () => {
    server = await startLoopbackServer((request) => {
      if (request.path === "/v1/models") return { body: { object: "list", data: [{ id: "fake-model" }] } };
      const memories = quotedData<{ id: number; content: string }[]>(chatRequest(request).prompt);
      return chatAnswer({ memories: memories.map(({ id, content }) => ({ id, questions: answerFor(content) })) });
    });
  });
  afterAll(() => server.close());

  it("remember, generate hints, then recall by words only the hints have", async () => {
    const home = tempDir("cairn-hints-");
    const cairn = new Cairn({
      home,
      env: { HOME: home },
      config: {
        ...fakeModelConfig(server),
        "recall.hints.enabled": true,
      },
    });
    try {
      await cairn.remember([
        { content: "Always run pnpm, never npm, in the weather service", scope: "global" },
        { content: "The release notes live in CHANGES.md", scope: "global" },
      ]);
      const query = { query: "where does third-party code come from?", scope: "global" };
      expect((await cairn.recall(query)).results).toHaveLength(0);

      const report = await cairn.generateHints();
      expect(report).toMatchObject({ outcome: "completed", indexed: 2, hints: 3, failed: 0, pending: 0 });
      const calls = () => server.requests.filter((r) => r.path === "/v1/chat/completions");
      // Both memories in one call.
      expect(calls()).toHaveLength(1);
      const found = await cairn.recall(query);
      expect(found.results[0]?.content).toBe("Always run pnpm, never npm, in the weather service");
      // A second pass has nothing left to ask.
      const again = await cairn.generateHints();
      expect(again).toMatchObject({ enqueued: 0, indexed: 0 });
      expect(calls()).toHaveLength(1);
    } finally {
      cairn.close();
    }
  });
});

describe("cairn memory hints (CLI)", () => {
  it("says why it did nothing when hints are off or no model is set, and rejects a bad --limit", () => {
    const env = { CAIRN_HOME: tempDir("cairn-hints-cli-") };
    expect(runCli(["remember", "Use pnpm here", "--scope", "global"], { env }).status).toBe(0);
    const off = runCli(["memory", "hints"], { env });
    expect(off).toMatchObject({ status: 0 });
    expect(off.stdout).toContain("hints skipped: recall.hints.enabled is false");
    expect(runCli(["config", "set", "recall.hints.enabled", "true"], { env }).status).toBe(0);
    const offline = runCli(["memory", "hints", "--json"], { env });
    expect(JSON.parse(offline.stdout)).toMatchObject({ outcome: "skipped" });
    expect(JSON.parse(offline.stdout).reason).toContain("need an LLM");
    const bad = runCli(["memory", "hints", "--limit", "0"], { env });
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain("--limit must be a whole number of at least 1");
  });
});
