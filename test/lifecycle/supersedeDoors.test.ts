import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { main } from "../../src/cli/program.js";
import { createHttpApp } from "../../src/server/createHttpApp.js";
import { inProcessMcpClient } from "../helpers/inProcessMcp.js";
import { type TempHome, tempHome } from "../server/tempHome.js";

// Supersession through every remember door: each answers once the new memory's revise job ran, and
// says what it replaced.

let temp: TempHome;

beforeEach(() => {
  temp = tempHome();
});

afterEach(() => {
  temp.cleanup();
});

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const out = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
    stdout += String(chunk);
    return true;
  });
  const err = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
    stderr += String(chunk);
    return true;
  });
  try {
    const code = await main(["node", "cairn", "--home", temp.home, ...args]);
    return { code, stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

/** Opens the store after a CLI call, runs `use`, and closes it. */
async function withStore<T>(use: (cairn: Cairn) => T | Promise<T>): Promise<T> {
  const cairn = new Cairn({ home: temp.home, env: temp.env });
  try {
    return await use(cairn);
  } finally {
    cairn.close();
  }
}

describe("cairn remember", () => {
  it("says what the new memory superseded, and recall no longer returns the old one", async () => {
    const first = await cli([
      "remember",
      "--scope",
      "app",
      "Always use npm in this repo, and run the tests with npm test",
    ]);
    expect(first).toMatchObject({ code: 0, stdout: "remembered (#1)\n" });
    const second = await cli(["remember", "--scope", "app", "We moved from npm to pnpm"]);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toBe(
      'remembered (#2)\nsuperseded #1 "Always use npm in this repo, and run the tests with npm test" (change statement: "npm" replaced by "pnpm")\n',
    );
    await withStore(async (cairn) => {
      const recalled = await cairn.recall({ query: "npm test", scope: "app" });
      expect(recalled.results.map((r) => r.id)).not.toContain(1);
    });
  });

  it("says which review flag the new memory raised, and with which memory", async () => {
    expect((await cli(["remember", "--scope", "app", "Format the code with prettier"])).code).toBe(0);
    const second = await cli(["remember", "--scope", "app", "Format the code with biome"]);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toBe(
      "remembered (#2)\nflagged for review against #1 (flag #1: tool change: prettier -> biome; the newer memory does not say it replaces the older)\n",
    );
    await withStore((cairn) => expect(cairn.storage.reviews.get(1)).toMatchObject({ memoryId: 1, relatedId: 2 }));
  });

  it("--file replays out-of-order occurredAt values oldest first: the newest value stays", async () => {
    const file = join(temp.root, "items.jsonl");
    const lines = [
      { content: "The API listens on port 9090 locally", scope: "app", occurredAt: "2026-09-01" },
      { content: "The API listens on port 3000 locally", scope: "app", occurredAt: "2026-01-15" },
      { content: "The API listens on port 8080 locally", scope: "app", occurredAt: "2026-05-20" },
    ];
    writeFileSync(file, lines.map((line) => JSON.stringify(line)).join("\n"));
    const result = await cli(["remember", "--file", file]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("3 remembered");
    await withStore((cairn) => {
      expect(cairn.memories.get(1)).toMatchObject({ deletedAt: null, supersededBy: null });
      expect(cairn.memories.get(2)?.supersededBy).toBe(3);
      expect(cairn.memories.get(3)?.supersededBy).toBe(1);
      const history = cairn.memories.historyOf(3).find((event) => event.event === "superseded");
      expect(history).toMatchObject({ who: "supersession", reason: "value change: 8080 -> 9090" });
    });
  });

  it("keeps a transcript given with --transcript-file, redacted, once per session key", async () => {
    const transcript = join(temp.root, "session.txt");
    writeFileSync(transcript, "user: deploy with key AKIAVQJXXVBOTHD0WTFL\nassistant: deploying to staging");
    const result = await cli([
      "remember",
      "--scope",
      "app",
      "--session-key",
      "sess-42",
      "--transcript-file",
      transcript,
      "Deploys go through the staging branch",
    ]);
    expect(result.code, result.stderr).toBe(0);
    writeFileSync(transcript, "a second transcript for the same session");
    expect(
      (
        await cli([
          "remember",
          "--scope",
          "app",
          "--session-key",
          "sess-42",
          "--transcript-file",
          transcript,
          "Staging deploys need a review",
        ])
      ).code,
    ).toBe(0);
    await withStore((cairn) => {
      const stored = cairn.storage.transcripts.transcripts(["sess-42"]).get("sess-42");
      expect(stored?.content).toContain("deploying to staging");
      expect(stored?.content).not.toContain("AKIAVQJXXVBOTHD0WTFL");
      expect(cairn.memories.get(1)?.provenance.sessionId).toBe("sess-42");
      cairn.storage.db.pragma("wal_checkpoint(TRUNCATE)");
    });
    expect(readFileSync(join(temp.home, "cairn.db")).includes("AKIAVQJXXVBOTHD0WTFL")).toBe(false);
  });

  it("refuses a transcript without a session key, storing nothing", async () => {
    const transcript = join(temp.root, "session.txt");
    writeFileSync(transcript, "user: hello");
    const result = await cli(["remember", "--transcript-file", transcript, "Builds use make"]);
    expect(result).toMatchObject({ code: 1, stderr: "cairn: sessionKey is required with a transcript\n" });
    await withStore((cairn) => expect(cairn.memories.counts().live).toBe(0));
  });
});

describe("HTTP, MCP and the library", () => {
  let cairn: Cairn;
  let app: ReturnType<typeof createHttpApp>;
  let client: Client;

  beforeEach(async () => {
    cairn = new Cairn({ home: temp.home, env: temp.env });
    app = createHttpApp({ cairn });
    client = await inProcessMcpClient(app, "cairn-supersede-test");
  });

  afterEach(async () => {
    await client.close();
    cairn.close();
  });

  const post = async (body: unknown) => {
    const response = await app.request("/api/memory/remember", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  it("HTTP answers with what was superseded", async () => {
    await post({ content: "Run the unit tests with Jest", scope: "app" });
    const { status, body } = await post({ content: "We replaced Jest with Vitest", scope: "app" });
    expect(status).toBe(200);
    expect(body.results).toEqual([
      expect.objectContaining({
        status: "created",
        id: 2,
        superseded: [
          { id: 1, content: "Run the unit tests with Jest", reason: 'change statement: "Jest" replaced by "Vitest"' },
        ],
      }),
    ]);
    expect(cairn.memories.get(1)?.supersededBy).toBe(2);
  });

  it("HTTP and MCP say which review flag a memory raised", async () => {
    await post({ content: "Format the code with prettier", scope: "app" });
    const { body } = await post({ content: "Format the code with biome", scope: "app" });
    expect(body.results).toEqual([
      expect.objectContaining({
        id: 2,
        flagged: [{ flag: 1, with: 1, reason: expect.stringMatching(/^tool change/) }],
      }),
    ]);
    const result = (await client.callTool({
      name: "remember",
      arguments: { text: "Format the code with dprint", scope: "app" },
    })) as { content: Array<{ text: string }> };
    expect(result.content[0]?.text).toContain("flagged for review against #2 (flag");
  });

  it("HTTP takes a batch with occurredAt and a shared transcript, redacted", async () => {
    const { status, body } = await post({
      scope: "app",
      sessionKey: "push-1",
      transcript: "user: the token is AKIAHBMUAPTT0ZN3X0PD\nassistant: noted",
      items: [
        { content: "Never use yarn here anymore", occurredAt: "2026-04-02" },
        { content: "Always use yarn", occurredAt: "2026-02-01" },
      ],
    });
    expect(status).toBe(200);
    expect(body.results).toEqual([
      expect.objectContaining({ id: 1, superseded: [expect.objectContaining({ id: 2 })] }),
      expect.objectContaining({
        id: 2,
        supersededBy: { id: 1, reason: 'polarity flip: "Never use yarn here anymore" against "Always use yarn"' },
      }),
    ]);
    const stored = cairn.storage.transcripts.transcripts(["push-1"]).get("push-1");
    expect(stored?.content).toMatch(/^user: the token is .*\nassistant: noted$/);
    expect(stored?.content).not.toContain("AKIAHBMUAPTT0ZN3X0PD");
  });

  it("HTTP refuses a transcript over the limit, naming it", async () => {
    const { status, body } = await post({
      content: "x",
      scope: "app",
      sessionKey: "s",
      transcript: "y".repeat(500_001),
    });
    expect(status).toBe(400);
    expect(body).toEqual({
      error: "transcript must be at most 500000 characters (the limit for one transcript); got 500001",
    });
    expect(cairn.memories.counts().live).toBe(0);
  });

  it("MCP remember says what it superseded and stores the transcript", async () => {
    await cairn.remember({ content: "The database is MySQL 8", scope: "app" });
    const result = (await client.callTool({
      name: "remember",
      arguments: {
        text: "We dropped MySQL in favour of Postgres 16",
        scope: "app",
        sessionKey: "mcp-1",
        transcript: "user: we are on postgres now",
      },
    })) as { isError?: boolean; content: Array<{ text: string }> };
    expect(result.isError).toBeFalsy();
    expect(result.content[0]?.text).toBe(
      'Remembered (id 2).\n\nsuperseded #1 "The database is MySQL 8" (change statement: "MySQL" replaced by "Postgres 16")',
    );
    expect(cairn.storage.transcripts.transcripts(["mcp-1"]).get("mcp-1")?.content).toBe("user: we are on postgres now");
  });

  it("the library reports a late, older statement as already replaced", async () => {
    const [newer] = await cairn.remember({
      content: "Use Node 22 for this service",
      scope: "app",
      occurredAt: "2026-05-01",
    });
    const [older] = await cairn.remember({
      content: "Use Node 20 for this service",
      scope: "app",
      occurredAt: "2026-01-01",
    });
    expect(older).toMatchObject({
      status: "created",
      supersededBy: { id: newer?.id, reason: "value change: 20 -> 22" },
    });
    const recalled = await cairn.recall({ query: "which Node version for this service", scope: "app" });
    expect(recalled.results.map((r) => r.id)).toEqual([newer?.id]);
  });
});
