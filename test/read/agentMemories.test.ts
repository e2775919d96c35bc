import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Cairn } from "../../src/cairn.js";
import { main } from "../../src/cli/program.js";
import type { createHttpApp } from "../../src/server/createHttpApp.js";
import { type EveryDoor, openEveryDoor, runCliOn } from "../helpers/everyDoor.js";
import type { TempHome } from "../server/tempHome.js";

// Who stored a memory decides how a later session is shown it (issue 33, 4.5): the user's own
// statements (CLI, library) as the user's; an agent's notes (MCP, HTTP) under a heading of their own,
// never as the user's; and an agent's memory for every project not at all until the user confirms it,
// which only the CLI and the library can do.

const AGENT_HEADING = "#### Saved by an agent (not confirmed by the user)";

let doors: EveryDoor;
let temp: TempHome;
let cairn: Cairn;
let app: ReturnType<typeof createHttpApp>;
let client: Client;
let other: string;

beforeEach(async () => {
  doors = await openEveryDoor("cairn-agent-memories");
  ({ temp, cairn, app, client } = doors);
  other = join(temp.root, "work", "other");
  mkdirSync(other, { recursive: true });
});
afterEach(() => doors.close());

async function mcpRemember(text: string, scope?: string): Promise<{ id: number; answer: string }> {
  const result = (await client.callTool({
    name: "remember",
    arguments: { text, cwd: temp.project, ...(scope ? { scope } : {}) },
  })) as { isError?: boolean; content: Array<{ text: string }> };
  expect(result.isError ?? false).toBe(false);
  const answer = result.content[0]?.text ?? "";
  return { id: Number(/id (\d+)/.exec(answer)?.[1]), answer };
}

async function httpRemember(content: string, scope?: string): Promise<number> {
  const response = await app.request("/api/memory/remember", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ content, cwd: temp.project, ...(scope ? { scope } : {}) }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { results: Array<{ id: number }> }).results[0]?.id as number;
}

/** What the CLI prints on stdout in this process. */
async function runCliOut(args: string[]): Promise<string> {
  let out = "";
  const spy = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
    out += String(chunk);
    return true;
  });
  try {
    expect(await main(["node", "cairn", "--home", temp.home, ...args])).toBe(0);
  } finally {
    spy.mockRestore();
  }
  return out;
}

/** The lines of the remembered list under `heading` (inside its fence). */
function listed(text: string, heading: string): string[] {
  const lines = text.split("\n");
  const start = lines.findIndex((line) => line.startsWith(heading));
  if (start < 0) return [];
  const fence = lines[start + 1] ?? "";
  return lines.slice(start + 2, lines.indexOf(fence.replace(/text$/, ""), start + 2));
}
const projectList = (cwd: string) => listed(cairn.inject(cwd).text, "### Remembered for this project");
const globalList = (cwd: string) => listed(cairn.inject(cwd).text, "### Remembered for every project");

describe("memories an agent stored", () => {
  it("are listed for their project under their own heading, after the user's statements", async () => {
    await cairn.remember({ content: "Keep commits small; one concern per commit", cwd: temp.project });
    const mcp = await mcpRemember("The staging database is reset every Monday");
    const http = await httpRemember("The CI cache key includes the lockfile hash");
    const lines = projectList(temp.project);
    expect(lines).toEqual([
      expect.stringContaining("Keep commits small"),
      AGENT_HEADING,
      expect.stringMatching(new RegExp(`^- #${http} .*CI cache key`)),
      expect.stringMatching(new RegExp(`^- #${mcp.id} .*staging database`)),
    ]);
    expect(cairn.memories.get(mcp.id)?.who).toBe("agent:mcp");
    expect(cairn.memories.get(http)?.who).toBe("agent:http");
  });

  it("for every project wait for the user: not injected anywhere until `cairn memory confirm`", async () => {
    await runCliOn(temp.home, ["remember", "Write commit messages in the imperative mood", "--scope", "global"]);
    const mcp = await mcpRemember("Prefer squash merges for every pull request", "global");
    expect(mcp.answer).toContain(`cairn memory confirm ${mcp.id}`);
    const http = await httpRemember("Use UTC in every log line", "global");
    for (const cwd of [temp.project, other]) {
      expect(globalList(cwd)).toEqual([expect.stringContaining("imperative mood")]);
      expect(cairn.inject(cwd).text).not.toContain("squash merges");
    }
    // Recall still finds it, for the session that asks.
    const found = await cairn.recall({ query: "squash merges", scope: "global" });
    expect(found.results.map((result) => result.id)).toContain(mcp.id);

    const listing = await runCliOut(["memory", "confirm"]);
    expect(listing).toContain(`#${mcp.id} (`);
    expect(listing).toContain(`#${http} (`);
    expect(await runCliOut(["status"])).toMatch(/^confirm {6}2 saved by an agent for every project/m);
    const confirmed = await runCliOn(temp.home, ["memory", "confirm", String(mcp.id)]);
    expect(confirmed).toEqual({ code: 0, stderr: "" });
    expect(globalList(other)).toEqual([
      expect.stringMatching(new RegExp(`^- #${mcp.id} .*squash merges`)),
      expect.stringContaining("imperative mood"),
    ]);
    expect(cairn.inject(other).text).not.toContain("Use UTC");
    expect(cairn.memoryHistory({ id: mcp.id }).events.map((event) => [event.event, event.who])).toContainEqual([
      "confirmed",
      "user",
    ]);
    expect(cairn.memories.get(http)?.who).toBe("agent:http");
  });

  it("become the user's when the user remembers the same text", async () => {
    const mcp = await mcpRemember("Release notes are written in the pull request", "global");
    expect(cairn.inject(other).text).not.toContain("Release notes");
    const [again] = await cairn.remember({
      content: "Release notes are written in the pull request",
      scope: "global",
      cwd: temp.project,
    });
    expect(again).toMatchObject({ status: "deduped", id: mcp.id });
    expect(cairn.memories.get(mcp.id)?.who).toBe("user");
    expect(globalList(other)).toEqual([expect.stringContaining("Release notes")]);
  });

  it("an agent's edit of the user's global memory is the agent's, and waits like any", async () => {
    const [mine] = await cairn.remember({ content: "Tabs for indentation", scope: "global", cwd: temp.project });
    const result = (await client.callTool({
      name: "edit",
      arguments: { id: mine?.id, text: "Spaces for indentation, four of them" },
    })) as { isError?: boolean };
    expect(result.isError ?? false).toBe(false);
    const injected = cairn.inject(other).text;
    expect(injected).not.toContain("Spaces for indentation");
    expect(injected).not.toContain("Tabs for indentation");
    // The user's own edit is the user's statement.
    const latest = cairn.memories.storage.memories.newestRemembered("global", 1)[0];
    await cairn.editMemory({ id: latest?.id as number, content: "Spaces for indentation, two of them" });
    expect(globalList(other)).toEqual([expect.stringContaining("two of them")]);
  });

  it("confirm is the user's: refused for a memory no agent stored, offered on neither MCP nor HTTP", async () => {
    const [mine] = await cairn.remember({ content: "Deploys go out on Tuesdays", scope: "global", cwd: temp.project });
    expect(() => cairn.confirmMemory({ id: mine?.id as number })).toThrow(/was not stored by an agent/);
    const tools = (await client.listTools()).tools.map((tool) => tool.name);
    expect(tools).not.toContain("confirm");
    const response = await app.request("/api/memory/confirm", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ id: mine?.id }),
    });
    expect(response.status).toBe(404);
  });
});
