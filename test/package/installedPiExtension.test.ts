import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { piExtensionSource } from "../../src/connectors/piExtension.js";
import { cairn, installedPackage, type UserHome, userHome } from "./installedCli.js";

// `cairn install pi` and `cairn install omp` from the installed tarball: the extension file they write is
// the one this source makes for the installed program (so the package is not stale), and, loaded the way
// pi loads an extension, it gives a session the memory and its tools answer from the installed cairn.

/** What the installed package's `cairn` writes into an extension: its Node.js and its own entry file. */
function expectedSource(agent: "pi" | "omp"): string {
  const entry = realpathSync(join(installedPackage, "dist", "cli", "main.cjs"));
  return piExtensionSource({
    invocation: { command: process.execPath, args: [entry] },
    agent,
    uninstall: `cairn uninstall ${agent}`,
  });
}

/**
 * Loads the extension into a stand-in for pi's ExtensionAPI in a Node.js of the user's environment (so the
 * cairn it runs sees the fake home), starts a session in `cwd`, and reports the system prompt, the tools and
 * what recall answers.
 */
function runExtension(user: UserHome, file: string, cwd: string) {
  // The file is plain JavaScript: as a module, the way pi's loader runs it (Node.js 22 strips no types).
  const module = join(user.home, "cairn-extension.mjs");
  copyFileSync(file, module);
  const harness = join(user.home, "harness.mjs");
  writeFileSync(
    harness,
    `const { default: extension } = await import(${JSON.stringify(pathToFileURL(module).href)});
const handlers = {};
const tools = {};
extension({ on: (event, handler) => { handlers[event] = handler; }, registerTool: (tool) => { tools[tool.name] = tool; } });
const ctx = { cwd: ${JSON.stringify(cwd)} };
await handlers.session_start({}, ctx);
const prompt = await handlers.before_agent_start({ systemPrompt: "BASE" }, ctx);
const recall = await tools.cairn_recall.execute("1", { query: "how are releases tagged", scope: "global" }, undefined, undefined, ctx);
process.stdout.write(JSON.stringify({ prompt: prompt?.systemPrompt ?? null, recall: recall.content[0].text, tools: Object.keys(tools) }));
`,
  );
  // No background pipeline run from this test (as a non-interactive agent run).
  const result = spawnSync(process.execPath, [harness], {
    cwd,
    env: { ...user.env, CLAUDE_CODE_ENTRYPOINT: "sdk-test" },
    encoding: "utf8",
    timeout: 60_000,
  });
  expect(result.stderr).toBe("");
  expect(result.status).toBe(0);
  return JSON.parse(result.stdout) as { prompt: string | null; recall: string; tools: string[] };
}

function remembered(): UserHome {
  const user = userHome();
  expect(cairn(user, ["remember", "--scope", "global", "Releases are tagged from main"]).status).toBe(0);
  expect(cairn(user, ["config", "set", "memories.enabled", "true"]).status).toBe(0);
  return user;
}

describe("the pi and oh-my-pi extension from the installed package", () => {
  it("pi: install writes the extension this source makes, which gives a session its memory; uninstall removes it", () => {
    const user = remembered();
    const install = cairn(user, ["install", "pi"]);
    expect(install.stderr).toBe("");
    expect(install.status).toBe(0);
    const file = join(user.home, ".pi", "agent", "extensions", "cairn.ts");
    expect(readFileSync(file, "utf8")).toBe(expectedSource("pi"));
    // Idempotent: a second install changes nothing.
    expect(cairn(user, ["install", "pi"]).status).toBe(0);
    expect(readFileSync(file, "utf8")).toBe(expectedSource("pi"));

    const session = runExtension(user, file, user.home);
    expect(session.prompt?.startsWith("BASE\n\n")).toBe(true);
    expect(session.prompt).toContain("Memory Guidance");
    expect(session.prompt).toContain("Releases are tagged from main");
    expect(session.recall).toContain("Releases are tagged from main");
    expect(session.tools).toEqual(["cairn_recall", "cairn_read"]);

    const uninstall = cairn(user, ["uninstall", "pi"]);
    expect(uninstall.stderr).toBe("");
    expect(uninstall.status).toBe(0);
    expect(existsSync(file)).toBe(false);
  });

  it("omp: install writes into oh-my-pi's folder once omp made it, and uninstall removes the file", () => {
    const user = remembered();
    const file = join(user.home, ".omp", "agent", "extensions", "cairn.ts");
    const refused = cairn(user, ["install", "omp"]);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain("does not exist, so cairn changed nothing: run omp once to create it");
    expect(existsSync(join(user.home, ".omp"))).toBe(false);

    mkdirSync(join(user.home, ".omp", "agent"), { recursive: true });
    const install = cairn(user, ["install", "omp"]);
    expect(install.stderr).toBe("");
    expect(install.status).toBe(0);
    expect(readFileSync(file, "utf8")).toBe(expectedSource("omp"));
    expect(runExtension(user, file, user.home).prompt).toContain("Releases are tagged from main");

    expect(cairn(user, ["uninstall", "omp"]).status).toBe(0);
    expect(existsSync(file)).toBe(false);
    expect(existsSync(join(user.home, ".omp", "agent"))).toBe(true);
  });
});
