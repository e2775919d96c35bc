import { mkdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { main } from "../../src/cli/program.js";
import { createHttpApp } from "../../src/server/createHttpApp.js";
import { callTool, inProcessMcpClient } from "../helpers/inProcessMcp.js";
import { type TempHome, tempHome } from "./tempHome.js";

// The explicit and agent triggers and the push API's session end, through each door: the library's
// push API, HTTP and the CLI. A secret pushed in a session never reaches a checkpoint.

const SECRET = "ghp_R7kW2pQ9xZ4mN8vB3cL6tY1hJ5gF0dS2aE7u";

let temp: TempHome;
let cairn: Cairn;
let now: number;

beforeEach(() => {
  temp = tempHome();
  now = Date.parse("2026-06-01T10:00:00Z");
  cairn = new Cairn({ home: temp.home, env: temp.env, clock: () => now, importLanes: false });
  const session = { agent: "codex" as const, cwd: temp.project };
  cairn.appendHistory("p1", { role: "user", text: `Rotate the deploy key, the old one is ${SECRET}` }, session);
  cairn.appendHistory("p1", { role: "assistant", text: "Rotating it now." }, session);
  cairn.appendHistory(
    "p1",
    {
      role: "tool_call",
      tool: "shell",
      callId: "c1",
      text: JSON.stringify({ command: `cairn recall "deploy key ${SECRET}"` }),
    },
    session,
  );
});

afterEach(() => {
  cairn.close();
  temp.cleanup();
});

const rows = () => cairn.storage.checkpoints.list();
const noSecret = () =>
  expect(JSON.stringify(cairn.storage.db.prepare("SELECT * FROM session_checkpoints").all())).not.toContain(
    "ghp_R7kW2pQ9",
  );

async function cli(...args: string[]): Promise<{ code: number; stdout: string }> {
  let stdout = "";
  const out = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
    stdout += String(chunk);
    return true;
  });
  try {
    return { code: await main(["node", "cairn", "--home", temp.home, ...args]), stdout };
  } finally {
    out.mockRestore();
    process.exitCode = undefined;
  }
}

describe("checkpoint doors", () => {
  it("push API: endSession writes a session_end checkpoint, redacted", () => {
    cairn.endSession("p1");
    const [row] = rows();
    expect(row?.trigger).toBe("session_end");
    expect(row?.digest).toContain("Rotate the deploy key");
    expect(row?.memoryQueries).toHaveLength(1);
    noSecret();
  });

  it("library: checkpoint() of a named session is explicit, or agent when the agent asks", async () => {
    const explicit = await cairn.checkpoint({ session: "p1" });
    expect(explicit).toEqual(expect.objectContaining({ written: true }));
    now += 60_000;
    await cairn.checkpoint({ session: "p1", trigger: "agent" });
    expect(rows().map((row) => row.trigger)).toEqual(["explicit", "agent"]);
    noSecret();
    await expect(cairn.checkpoint({ session: "nope" })).rejects.toThrow(/no session nope is stored/);
  });

  it("HTTP: POST /api/checkpoint writes one; a relative cwd or no session and no cwd is a 400", async () => {
    const app = createHttpApp({ cairn });
    const post = (body: unknown) =>
      app.request("/api/checkpoint", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const ok = await post({ cwd: temp.project });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual(expect.objectContaining({ written: true, merged: false }));
    expect((await post({})).status).toBe(400);
    expect(await (await post({ cwd: "relative" })).json()).toEqual({ error: "cwd must be an absolute path" });
    expect((await post({ session: "nope" })).status).toBe(404);
    noSecret();
  });

  it("CLI: cairn checkpoint prints the digest of the project's newest session", async () => {
    const result = await cli("checkpoint", "--cwd", temp.project);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^checkpoint \d+ of session p1:/);
    expect(result.stdout).toContain("Rotate the deploy key");
    expect(result.stdout).not.toContain("ghp_R7kW2pQ9");
    noSecret();
  });

  it("CLI: a relative --cwd is the caller's folder, and a message names it in full", async () => {
    const before = process.cwd();
    const elsewhere = join(temp.project, "..", "no-sessions-here");
    mkdirSync(elsewhere, { recursive: true });
    let stderr = "";
    const err = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
      stderr += String(chunk);
      return true;
    });
    try {
      process.chdir(temp.project);
      expect((await cli("checkpoint", "--cwd", ".")).stdout).toMatch(/^checkpoint \d+ of session p1:/);
      process.chdir(elsewhere);
      expect((await cli("checkpoint", "--cwd", ".")).code).toBe(1);
    } finally {
      process.chdir(before);
      err.mockRestore();
    }
    expect(stderr).toContain(`no session of the project at ${realpathSync(elsewhere)}`);
  });

  it("MCP: the checkpoint tool writes an agent checkpoint and answers its digest; an unknown session is one error line", async () => {
    const client = await inProcessMcpClient(createHttpApp({ cairn }), "claude-code");
    const result = await callTool(client, "checkpoint", { cwd: temp.project });
    expect(result.isError).toBe(false);
    expect(result.text).toContain("Rotate the deploy key");
    expect(result.text).not.toContain("ghp_R7kW2pQ9");
    expect(rows().map((row) => row.trigger)).toEqual(["agent"]);
    const missing = await callTool(client, "checkpoint", { session: "nope" });
    expect(missing).toEqual({ isError: true, text: expect.stringMatching(/^no session nope is stored/) });
    expect((await callTool(client, "checkpoint", { cwd: "relative" })).text).toBe("cwd must be an absolute path");
    noSecret();
    await client.close();
  });
});
