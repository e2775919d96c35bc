import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { createHttpApp } from "../../src/server/createHttpApp.js";
import { withoutControls } from "../../src/text/controlCharacters.js";
import { inProcessMcpClient } from "../helpers/inProcessMcp.js";
import { runCli } from "../helpers/runCli.js";
import { type TempHome, tempHome } from "../server/tempHome.js";

/** What a hostile memory could hold to act on a terminal or hide what it says. */
const ESCAPES = [
  "\u001b[31m", // recolour
  "\u001b]0;owned\u0007", // retitle the terminal window
  "\u001b[2K\r", // erase the line and start over it
  "\u009b8m", // C1 control sequence introducer: hide text
  "\u202e", // right-to-left override
];
const HOSTILE = `The API listens on port 3000 ${ESCAPES.join("x ")}done`;
const hasControl = (text: string) => withoutControls(text) !== text;

describe("control characters in memory text", () => {
  let temp: TempHome;
  let cairn: Cairn;
  let client: Client;
  beforeAll(async () => {
    temp = tempHome();
    cairn = new Cairn({ home: temp.home, env: temp.env });
    await cairn.remember({ content: HOSTILE, scope: "global" });
    client = await inProcessMcpClient(createHttpApp({ cairn }), "cairn-controls-test");
  });
  afterAll(async () => {
    await client.close();
    cairn.close();
    temp.cleanup();
  });

  it("are replaced where memory enters the store, and the words around them kept", () => {
    const stored = cairn.memories.get(1)?.content ?? "";
    expect(hasControl(stored)).toBe(false);
    expect(stored).toMatch(/^The API listens on port 3000 \uFFFD\[31mx .*done$/);
  });

  it("are replaced whichever door the memory comes through: CLI, --file, HTTP, MCP", async () => {
    const text = (door: string) => `Door ${door} keeps ${ESCAPES.join("x ")}done`;
    const file = join(temp.root, "items.jsonl");
    writeFileSync(file, `${JSON.stringify({ content: text("file"), scope: "doors" })}\n`);
    expect(runCli(["remember", "--file", file], { env: temp.env }).status).toBe(0);
    expect(runCli(["remember", "--scope", "doors", text("cli")], { env: temp.env }).status).toBe(0);
    const app = createHttpApp({ cairn });
    const http = await app.request("/api/memory/remember", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ content: text("http"), scope: "doors" }),
    });
    expect(http.status).toBe(200);
    await client.callTool({ name: "remember", arguments: { text: text("mcp"), scope: "doors" } });
    const stored = cairn.storage.db.prepare("SELECT content FROM memories WHERE scope = 'doors'").all() as Array<{
      content: string;
    }>;
    expect(stored.map((row) => row.content.split(" ")[1]).sort()).toEqual(["cli", "file", "http", "mcp"]);
    for (const row of stored) expect(hasControl(row.content)).toBe(false);
  });

  it("never reach a terminal or an agent through recall, remember, MCP or an error", async () => {
    // A store written before the rule holds them still: the exits replace them too.
    cairn.storage.db.prepare("UPDATE memories SET content = ? WHERE id = 1").run(HOSTILE);
    const recall = runCli(["recall", "api port", "--scope", "global"], { env: temp.env });
    expect(recall.status, recall.stderr).toBe(0);
    expect(recall.stdout).toContain("The API listens on port 3000");
    expect(hasControl(recall.stdout.replace(/\n/g, ""))).toBe(false);

    const remember = runCli(["remember", "--scope", "global", "The API listens on port 8080"], { env: temp.env });
    // Its outcome quotes the old memory's values: a review flag against #1.
    expect(remember.stdout).toContain("against #1");
    expect(hasControl(remember.stdout.replace(/\n/g, ""))).toBe(false);

    const tool = (await client.callTool({
      name: "recall",
      arguments: { query: "api port", scope: "global", includeSuperseded: true },
    })) as { content: Array<{ text: string }> };
    expect(tool.content[0]?.text).toContain("port 3000");
    expect(hasControl(tool.content[0]?.text.replace(/\n/g, "") ?? "")).toBe(false);

    // An error that quotes what it was given.
    const read = runCli(["read", "memory://root/\u001b]0;owned\u0007.md"], { env: temp.env });
    expect(read.status).not.toBe(0);
    expect(read.stderr).toContain("memory://root/");
    expect(hasControl(read.stderr.replace(/\n/g, ""))).toBe(false);
  });
});
