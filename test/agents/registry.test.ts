import { existsSync, readFileSync } from "node:fs";
import { isAbsolute, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { agentIds, agents, connectorAgents } from "../../src/agents/registry.js";
import { configObjectSchema } from "../../src/config/schema.js";
import { connectorFor } from "../../src/connectors/connectors.js";
import { INJECTION_AGENTS, injectionBudget } from "../../src/read/injectionBudget.js";
import { toolTextBudget } from "../../src/server/formatToolText.js";
import { adapters, scanTargets } from "../../src/sources/registry.js";
import { agentNames } from "../../src/sources/types.js";

// What every agent in src/agents/registry.ts must come with. A sixth agent added to the registry
// without its adapter, fixture, connector (or the documented reason for none), folders, budgets or
// docs (docs/collection.md, docs/integration.md, the README) fails here, naming the agent
// (docs/contributing/add-an-agent.md).

const repo = fileURLToPath(new URL("../..", import.meta.url));
const home = join("/", "home", "someone");

describe.each(agents.map((agent) => [agent.name, agent] as const))("registered agent %s", (name, agent) => {
  it("has an adapter that parses its fixture in test/fixtures/<agent>/", async () => {
    const adapter = adapters.find((candidate) => candidate.agent === name);
    expect(adapter, `no adapter for ${name} in src/sources/registry.ts`).toBeDefined();
    const fixtures = join(repo, "test", "fixtures", name);
    expect(existsSync(fixtures), `test/fixtures/${name}/ is missing`).toBe(true);
    const files = (await adapter!.discover(fixtures)).filter((file) => !file.skipped);
    expect(files.length, `the ${name} adapter finds no session in test/fixtures/${name}/`).toBeGreaterThan(0);
    const result = await adapter!.read({ file: files[0]! });
    expect(result.sessions.length).toBeGreaterThan(0);
    expect(result.sessions[0]!.session.agent).toBe(name);
    expect(result.sessions[0]!.items.length).toBeGreaterThan(0);
  });

  it("is wired by 'cairn install', or says why not with the agent's documentation", () => {
    if (agent.install.connector) {
      expect(connectorAgents).toContain(name);
      expect(connectorFor(name).agent).toBe(name);
    } else {
      expect(agent.install.reason.length).toBeGreaterThan(0);
      expect(agent.install.doc).toMatch(/^https:\/\//);
      expect(() => connectorFor(name)).toThrow(agent.install.reason);
    }
  });

  it("has default folders under the user's home, moved by each variable it lists", () => {
    const folders = agent.sessionFolders({}, home);
    expect(folders.length).toBeGreaterThan(0);
    for (const folder of [...folders, agent.configFolder({}, home)]) {
      expect(isAbsolute(folder)).toBe(true);
      expect(relative(home, folder).startsWith("..")).toBe(false);
    }
    expect(agent.environment.length).toBeGreaterThan(0);
    for (const variable of agent.environment) {
      const env = { [variable.name]: join("/", "elsewhere", "x.db") };
      const moved = [...agent.sessionFolders(env, home), agent.configFolder(env, home)];
      const before = [...folders, agent.configFolder({}, home)];
      expect(moved, `${variable.name} is listed but moves nothing`).not.toEqual(before);
    }
  });

  it("has an injection budget and an MCP budget, each documented when it is a limit", () => {
    expect(INJECTION_AGENTS).toContain(name);
    const budget = injectionBudget(name, 5000);
    if (agent.injection.unit === "chars") {
      expect(agent.injection.doc).toMatch(/^https:\/\//);
      expect(budget).toMatchObject({ unit: "chars", limit: agent.injection.cap - agent.injection.margin });
    } else {
      expect(budget).toMatchObject({ unit: "tokens", limit: 5000 });
    }
    const toolText = agent.mcp.toolText;
    if (toolText) {
      expect(toolText.doc).toMatch(/^https:\/\//);
      if (agent.mcp.clientName)
        expect(toolTextBudget(agent.mcp.clientName)).toEqual({ bytes: toolText.bytes, lines: toolText.lines });
    }
  });

  it("is accepted under sources in the config, and read from there by the scan", () => {
    const parsed = configObjectSchema().safeParse({ sources: { [name]: ["/sessions/here"] } });
    expect(parsed.success).toBe(true);
    const configured = parsed.data!.sources as Record<string, string[] | undefined>;
    const target = scanTargets({ env: {}, home, configured }).find((t) => t.adapter.agent === name);
    expect(target?.roots).toEqual(["/sessions/here"]);
  });

  it("is in the docs: its row in docs/collection.md and, with a connector, its section in docs/integration.md", () => {
    const collection = readFileSync(join(repo, "docs", "collection.md"), "utf8");
    const rows = collection.split("\n").filter((line) => line.startsWith("| "));
    expect(rows.some((row) => row.includes(agent.displayName))).toBe(true);
    if (agent.install.connector)
      expect(readFileSync(join(repo, "docs", "integration.md"), "utf8")).toContain(`cairn install ${name}`);
    for (const doc of agent.docs) expect(doc).toMatch(/^https:\/\//);
  });

  it("is in the README: its sources key and, with a connector, its install command", () => {
    const readme = readFileSync(join(repo, "README.md"), "utf8");
    const sourcesRow = readme.split("\n").find((line) => line.startsWith("| `sources.<agent>`"));
    expect(sourcesRow).toContain(`\`${name}\``);
    if (agent.install.connector) expect(readme).toContain(`cairn install ${name}`);
  });
});

describe("the registry", () => {
  it("is what the stored sessions, the adapters and the scan list, in one order", () => {
    expect(agentNames).toEqual([...agentIds, "push"]);
    expect(adapters.map((adapter) => adapter.agent)).toEqual(agentIds);
    expect(scanTargets({ env: {}, home }).map((target) => target.adapter.agent)).toEqual(agentIds);
    expect(new Set(agentIds).size).toBe(agentIds.length);
  });

  it("gives the config's sources exactly the registered keys", () => {
    const unknown = configObjectSchema().safeParse({ sources: { vim: ["/x"] } });
    expect(unknown.success).toBe(false);
    expect(JSON.stringify(unknown.error?.issues)).toContain("vim");
    const all = configObjectSchema().safeParse({ sources: Object.fromEntries(agentIds.map((id) => [id, []])) });
    expect(all.success).toBe(true);
  });

  it("gives a client no descriptor names the smallest documented MCP budget", () => {
    const documented = agents.flatMap((agent) => (agent.mcp.toolText ? [agent.mcp.toolText.bytes] : []));
    expect(toolTextBudget("some-other-agent").bytes).toBe(Math.min(...documented));
    expect(toolTextBudget(undefined).bytes).toBe(Math.min(...documented));
  });
});
