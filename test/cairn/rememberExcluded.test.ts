import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Cairn, openCairn } from "../../src/index.js";
import { createMcpServer } from "../../src/server/createMcpServer.js";

// Paths that need not exist: no git checkout is found above them.
const SECRET = "/nonexistent-cairn/work/secret";

describe("remember inside a folder memories.exclude covers", () => {
  let home: string;
  let cairn: Cairn;

  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), "cairn-remember-excluded-"));
    cairn = openCairn({ home, env: {}, config: { "llm.provider": "offline", "memories.exclude": [SECRET] } });
  });
  afterEach(() => {
    cairn.close();
    rmSync(home, { recursive: true, force: true });
  });

  const stored = async () => (await cairn.recall({ query: "staging deploy", scope: "all" })).results.length;

  it("refuses a project memory from a subfolder, and a global one written from there, storing nothing", async () => {
    const message = `${SECRET}/api is excluded by memories.exclude ('${SECRET}'), so cairn stores nothing from it; remember from a folder that is not excluded, or remove the pattern ('cairn config get memories.exclude')`;
    await expect(cairn.remember({ content: "the staging deploy needs VPN", cwd: `${SECRET}/api` })).rejects.toThrow(
      message,
    );
    await expect(
      cairn.remember({ content: "the staging deploy needs VPN", cwd: `${SECRET}/api`, scope: "global" }),
    ).rejects.toMatchObject({ code: "project_excluded", status: 409 });
    expect(await stored()).toBe(0);
  });

  it("stores a memory from another folder, and a global one given no folder", async () => {
    await cairn.remember({ content: "the staging deploy needs VPN", cwd: "/nonexistent-cairn/work/shop" });
    await cairn.remember({ content: "the staging deploy runs on Fridays", scope: "global" });
    expect(await stored()).toBe(2);
  });

  it("answers an agent's MCP remember in the excluded folder with the refusal as a tool error", async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(cairn, { cwd: `${SECRET}/api` }).connect(serverSide);
    const client = new Client({ name: "claude-code", version: "1.0.0" });
    await client.connect(clientSide);
    const result = (await client.callTool({
      name: "remember",
      arguments: { text: "the staging deploy needs VPN", scope: "global" },
    })) as { isError?: boolean; content: Array<{ text: string }> };
    await client.close();
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toMatch(/^\/nonexistent-cairn\/work\/secret\/api is excluded by memories\.exclude/);
    expect(await stored()).toBe(0);
  });
});
