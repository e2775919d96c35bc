import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openCairn } from "../../src/index.js";
import { createHttpApp } from "../../src/server/createHttpApp.js";
import { inProcessMcpClient } from "../helpers/inProcessMcp.js";
import { tempDir } from "../helpers/tempDir.js";
import { spawnSyncTimed } from "../helpers/timedSpawn.js";
import { cliArgs } from "../server/tempHome.js";

/** `cairn recall` run in `cwd` (recall searches the project of the directory it runs in). */
function recallIn(cwd: string, env: NodeJS.ProcessEnv, ...args: string[]) {
  return spawnSyncTimed(process.execPath, cliArgs("recall", ...args), {
    cwd,
    env: { ...process.env, CAIRN_LLM_PROVIDER: "offline", ...env },
    encoding: "utf8",
  });
}

function fresh(): { home: string; project: string; env: NodeJS.ProcessEnv } {
  const home = tempDir("cairn-recall-why-");
  const project = join(tempDir("cairn-recall-project-"), "shop");
  mkdirSync(project);
  return { home, project, env: { CAIRN_HOME: home } };
}

describe("an empty recall names the scopes it searched and what they hold", () => {
  it("a fresh memory root: nothing to search, and why the project has no memory yet (CLI text and --json)", () => {
    const { project, env } = fresh();
    const text = recallIn(project, env, "cart totals");
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toContain(
      `nothing to search: path:${project} (0 memories), global (0 memories) hold no memory yet; no memory to give for ${project}`,
    );
    const json = recallIn(project, env, "cart totals", "--json");
    const response = JSON.parse(json.stdout) as { results: unknown[]; reason: Record<string, unknown> };
    expect(response.results).toEqual([]);
    expect(response.reason).toMatchObject({
      code: "no_memory",
      scopes: [`path:${project}`, "global"],
      memories: { [`path:${project}`]: 0, global: 0 },
      project: { code: "no_sessions" },
    });
  });

  it("memories that do not match: counts them per scope, over the CLI, HTTP and MCP alike", async () => {
    const { home, project, env } = fresh();
    const cairn = openCairn({ home, env: {} });
    try {
      await cairn.remember([
        { content: "Cart totals are kept in cents.", cwd: project },
        { content: "Invoices are numbered per year.", cwd: project },
        { content: "Prefers short commit subjects.", scope: "global" },
      ]);
      const query = "zeppelin";
      // Each door names its own way to search every scope: the CLI's flag, the request's and tool's argument.
      const matched = `no memory matched "${query}" in path:${project} (2 memories), global (1 memory); try other words, or`;
      const expected = `${matched} scope: "all"`;
      const app = createHttpApp({ cairn });
      const http = await app.request("/api/memory/recall", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query, cwd: project }),
      });
      const body = (await http.json()) as { results: unknown[]; reason: Record<string, unknown> };
      expect(body.results).toEqual([]);
      expect(body.reason).toEqual({
        code: "no_match",
        message: expected,
        scopes: [`path:${project}`, "global"],
        memories: { [`path:${project}`]: 2, global: 1 },
      });
      const client = await inProcessMcpClient(app, "cairn-recall-why");
      const tool = (await client.callTool({ name: "recall", arguments: { query, cwd: project } })) as {
        content: Array<{ text: string }>;
      };
      expect(tool.content[0]?.text).toContain(expected);
      expect(tool.content[0]?.text).not.toContain("--scope");
      const everywhere = (await client.callTool({ name: "recall", arguments: { query, scope: "all" } })) as {
        content: Array<{ text: string }>;
      };
      expect(everywhere.content[0]?.text).toContain(
        `no memory matched "${query}" in every scope (3 memories); try other words`,
      );
      await client.close();
      cairn.close();
      const cli = recallIn(project, env, query);
      expect(cli.stdout.trim()).toBe(`${matched} --scope all`);
    } finally {
      cairn.close();
    }
  });
});
