import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { main } from "../../src/cli/program.js";
import { createHttpApp } from "../../src/server/createHttpApp.js";
import { inProcessMcpClient } from "../helpers/inProcessMcp.js";
import { spawnSyncTimed } from "../helpers/timedSpawn.js";
import { cliArgs, type TempHome, tempHome } from "./tempHome.js";

// forget, edit, restore and review through each door a person or an agent uses: the CLI, the HTTP
// routes (token-guarded) and the MCP tools of the daemon (whose own folder is nobody's project).

const TOKEN = "curation-test-token-7f3a9c";
const SECRET = "ghp_R7kW2pQ9xZ4mN8vB3cL6tY1hJ5gF0dS2aE7u";

let temp: TempHome;
let cairn: Cairn;
let app: ReturnType<typeof createHttpApp>;
let client: Client;

beforeAll(async () => {
  temp = tempHome();
  cairn = new Cairn({ home: temp.home, env: temp.env });
  app = createHttpApp({ cairn, token: TOKEN });
  client = await inProcessMcpClient(createHttpApp({ cairn }), "cairn-curation-test");
});

afterAll(async () => {
  await client.close();
  cairn.close();
  temp.cleanup();
});

async function remember(content: string): Promise<number> {
  const [outcome] = await cairn.remember({ content, cwd: temp.project });
  return outcome?.id as number;
}

function flag(memoryId: number, extra: { relatedId?: number; proposedContent?: string } = {}): number {
  return cairn.storage.reviews.add({
    memoryId,
    reason: "contradicted",
    detector: "syntactic",
    now: Date.now(),
    ...extra,
  });
}

function post(path: string, body: unknown, token: string | undefined = TOKEN) {
  return app.request(path, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
}

async function tool(name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as {
    isError?: boolean;
    content: Array<{ text: string }>;
  };
  return { isError: result.isError ?? false, text: result.content[0]?.text ?? "" };
}

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
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
    return { code: await main(["node", "cairn", "--home", temp.home, ...args]), stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

const live = (id: number) => cairn.memories.get(id)?.deletedAt === null;

describe("CLI: cairn memory forget | edit | restore | review", () => {
  it("forgets, edits and restores by id and says what changed", async () => {
    const id = await remember("Lint with eslint");
    cairn.storage.phase2.clearForceNext();
    expect(await cli("memory", "forget", String(id), "--reason", "we moved to biome")).toEqual({
      code: 0,
      stdout: `forgot #${id}\n`,
      stderr: "",
    });
    expect(cairn.memories.historyOf(id).at(-1)).toMatchObject({ event: "deleted", reason: "we moved to biome" });
    expect(cairn.storage.phase2.forceNextRequested()).toBe(true);
    expect((await cli("memory", "restore", String(id))).stdout).toBe(`restored #${id}\n`);
    expect(live(id)).toBe(true);

    const edited = await cli("memory", "edit", String(id), "--content", `Lint with biome; token ${SECRET}`, "--json");
    expect(edited.code).toBe(0);
    const change = JSON.parse(edited.stdout) as { change: string; replacedBy: number; message: string };
    expect(change).toMatchObject({ change: "replaced", message: `#${id} replaced by #${change.replacedBy}` });
    expect(cairn.memories.get(change.replacedBy)?.content).toBe("Lint with biome; token [REDACTED:github-token]");
    expect(JSON.stringify(cairn.memories.historyOf(change.replacedBy))).not.toContain(SECRET);
  });

  it("refuses a bad id, an unknown id, an empty edit and an all-private note in one line each", async () => {
    expect(await cli("memory", "forget", "abc")).toMatchObject({
      code: 1,
      stderr: 'cairn: id must be a whole number of at least 1 (got "abc")\n',
    });
    expect(await cli("memory", "forget", "99999")).toMatchObject({
      code: 1,
      stderr: "cairn: no memory #99999; nothing was changed\n",
    });
    const id = await remember("Commit messages are in English");
    expect((await cli("memory", "edit", String(id))).stderr).toBe(
      "cairn: memory edit needs --content and/or --type; nothing was changed\n",
    );
    expect((await cli("memory", "edit", String(id), "--content", "<private>mine</private>")).stderr).toBe(
      `cairn: the new text of #${id} has nothing left once <private> blocks and secrets are removed; nothing was changed (forget #${id} to drop it)\n`,
    );
    expect(live(id)).toBe(true);
  });

  it("lists open flags with ids, both sides and dates, and resolves one with --supersede", async () => {
    // Two memories the detectors leave alone (a "now" would replace the older at once), flagged by hand.
    const old = await remember("The queue is RabbitMQ");
    const newer = await remember("Background jobs go through a NATS stream");
    const id = flag(old, { relatedId: newer });
    const listed = await cli("memory", "review", "--cwd", temp.project, "--list");
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(`flag #${id} (syntactic, `);
    expect(listed.stdout).toMatch(
      new RegExp(`flagged  #${old} \\(\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d, fact\\): The queue is RabbitMQ`),
    );
    expect(listed.stdout).toContain(`newer    #${newer} (`);
    expect(listed.stdout).toContain("cairn memory review <flag> --keep | --supersede | --forget");
    const json = JSON.parse((await cli("memory", "review", "--cwd", temp.project, "--json")).stdout) as Array<{
      flag: number;
    }>;
    expect(json.map((entry) => entry.flag)).toContain(id);

    expect((await cli("memory", "review", String(id))).stderr).toBe(
      `cairn: say what to do with flag #${id}: --keep, --supersede or --forget\n`,
    );
    expect((await cli("memory", "review", String(id), "--keep", "--forget")).stderr).toBe(
      "cairn: choose one of --keep, --supersede and --forget\n",
    );
    expect((await cli("memory", "review", String(id), "--supersede")).stdout).toBe(
      `#${old} replaced by #${newer} (flag #${id} resolved)\n`,
    );
    expect(cairn.memories.get(old)?.supersededBy).toBe(newer);
  });

  it("lists without asking when stdin is not a terminal", async () => {
    const id = flag(await remember("Migrations run with knex"), { proposedContent: "Migrations run with drizzle" });
    const result = spawnSyncTimed(process.execPath, cliArgs("memory", "review"), {
      cwd: temp.project,
      env: temp.env,
      input: "",
      encoding: "utf8",
    });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain(`flag #${id} (syntactic, `);
    expect(result.stdout).toContain("  proposed Migrations run with drizzle");
    expect(result.stdout).not.toContain("[k]eep");
    expect(cairn.storage.reviews.get(id)?.resolvedAt).toBeNull();
  });
});

describe("HTTP: /api/memory/forget | edit | restore | review | review/resolve", () => {
  it("needs the bearer token", async () => {
    const id = await remember("Docs live in docs/");
    for (const path of ["/api/memory/forget", "/api/memory/edit", "/api/memory/restore", "/api/memory/review"]) {
      expect((await post(path, { id }, "")).status).toBe(401);
    }
    expect((await post("/api/memory/review/resolve", { flag: 1, action: "keep" }, "wrong")).status).toBe(401);
    expect(live(id)).toBe(true);
  });

  it("forgets, edits and restores, with 404 for an unknown id and 400 for a bad one", async () => {
    const id = await remember("Staging runs on k3s");
    const forgot = await post("/api/memory/forget", { id });
    expect(forgot.status).toBe(200);
    expect(await forgot.json()).toEqual({ change: "forgot", id, message: `forgot #${id}` });
    expect(await (await post("/api/memory/restore", { id, reason: "still true" })).json()).toMatchObject({
      change: "restored",
    });
    const edited = await post("/api/memory/edit", { id, content: "Staging runs on k3s 1.30", type: "decision" });
    const change = (await edited.json()) as { replacedBy: number };
    expect(cairn.memories.get(change.replacedBy)).toMatchObject({
      content: "Staging runs on k3s 1.30",
      type: "decision",
    });

    const missing = await post("/api/memory/forget", { id: 99999 });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: "no memory #99999; nothing was changed" });
    const bad = await post("/api/memory/edit", { id: "12", content: "x" });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: "id must be a number; got a string" });
    const long = await post("/api/memory/edit", { id: change.replacedBy, content: "x".repeat(10_001) });
    expect(long.status).toBe(400);
    expect(await long.json()).toEqual({
      error: "content must be at most 10000 characters (the limit for one memory); got 10001",
    });
    const again = await post("/api/memory/forget", { id });
    expect(again.status).toBe(400);
    expect(await again.json()).toEqual({
      error: `memory #${id} was already replaced by #${change.replacedBy}; forget #${change.replacedBy} instead`,
    });
  });

  it("lists flags for a named project and resolves them", async () => {
    const old = await remember("Tests use jest");
    const id = flag(old, { proposedContent: "Tests use vitest" });
    const noCwd = await post("/api/memory/review", {});
    expect(noCwd.status).toBe(400);
    expect(await noCwd.json()).toEqual({ error: "cwd is required when scope is project (the default)" });
    const listed = (await (await post("/api/memory/review", { cwd: temp.project })).json()) as {
      flags: Array<{ flag: number; memory: { content: string }; proposedContent: string }>;
    };
    expect(listed.flags.find((entry) => entry.flag === id)).toMatchObject({
      memory: { content: "Tests use jest" },
      proposedContent: "Tests use vitest",
    });
    const resolved = await post("/api/memory/review/resolve", { flag: id, action: "supersede" });
    const change = (await resolved.json()) as { replacedBy: number; flag: number };
    expect(change.flag).toBe(id);
    expect(cairn.memories.get(change.replacedBy)?.content).toBe("Tests use vitest");
    expect((await post("/api/memory/review/resolve", { flag: 99999, action: "keep" })).status).toBe(404);
  });
});

describe("MCP tools: review, resolve_review, forget, edit, restore", () => {
  it("forgets, edits (guarded) and restores by id", async () => {
    const id = await remember("The cache is Redis");
    expect(await tool("forget", { id })).toEqual({ isError: false, text: `forgot #${id}.` });
    expect(await tool("restore", { id })).toEqual({ isError: false, text: `restored #${id}.` });
    const edited = await tool("edit", { id, text: `The cache is Valkey, password=Tr0ub4dor-and-3-horses` });
    expect(edited.isError).toBe(false);
    const successor = Number(/replaced by #(\d+)/.exec(edited.text)?.[1]);
    expect(cairn.memories.get(successor)?.content).not.toContain("Tr0ub4dor-and-3-horses");
    expect(await tool("edit", { id: successor, text: "<private>only mine</private>" })).toMatchObject({
      isError: true,
    });
    expect(await tool("forget", { id: 99999 })).toEqual({
      isError: true,
      text: "no memory #99999; nothing was changed",
    });
    expect((await tool("edit", { id: successor })).text).toBe("content or type is required (what to change)");
  });

  it("lists flags for the cwd it names and resolves them", async () => {
    const old = await remember("Releases are tagged vX.Y");
    const newer = await remember("Releases are tagged release-X.Y now");
    const id = flag(old, { relatedId: newer });
    expect(await tool("review", {})).toEqual({
      isError: true,
      text: "cwd is required when scope is project (the default)",
    });
    const listed = await tool("review", { cwd: temp.project });
    expect(listed.text).toContain(`flag ${id} [syntactic, `);
    expect(listed.text).toContain(`flagged: id ${old}, fact, scope `);
    expect(listed.text).toContain("> Releases are tagged vX.Y");
    expect(listed.text).toContain("> Releases are tagged release-X.Y now");
    expect(await tool("resolve_review", { flag: id, action: "forget" })).toEqual({
      isError: false,
      text: `forgot #${old} (flag #${id} resolved).`,
    });
    expect(live(old)).toBe(false);
    expect(live(newer)).toBe(true);
    expect((await tool("review", { cwd: temp.project })).text).not.toContain(`flag ${id} `);
  });
});
