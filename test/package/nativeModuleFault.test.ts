import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, describe, expect, it } from "vitest";
import { tempDir } from "../helpers/tempDir.js";
import { writeSummary } from "../server/tempHome.js";
import { bin, cairn, installedPackage, userHome } from "./installedCli.js";

// A user upgrades or swaps Node.js, or copies an install to another machine: the SQLite driver's binary no
// longer loads. Reproduced for real: an addon compiled against another Node.js's headers is put where
// better-sqlite3 looks first (build/Release), so Node's loader refuses it with NODE_MODULE_VERSION.

const driver = join(installedPackage, "node_modules", "better-sqlite3");
const release = join(driver, "build", "Release");

/** Headers of a Node.js whose module version is not this one's: CAIRN_PACKAGE_FOREIGN_NODEDIR, else npm's nodedir. */
function foreignNodedir(): { dir: string; moduleVersion: string } | undefined {
  const candidates = [process.env.CAIRN_PACKAGE_FOREIGN_NODEDIR, npmNodedir()];
  for (const dir of candidates) {
    const header = dir && join(dir, "include", "node", "node_version.h");
    if (!header || !existsSync(header)) continue;
    const moduleVersion = /#define NODE_MODULE_VERSION (\d+)/.exec(readFileSync(header, "utf8"))?.[1];
    if (moduleVersion && moduleVersion !== process.versions.modules) return { dir, moduleVersion };
  }
  return undefined;
}

function npmNodedir(): string | undefined {
  const env = { ...process.env, TMPDIR: tempDir("cairn-npm-") };
  const dir = execFileSync("npm", ["config", "get", "nodedir"], { encoding: "utf8", env }).trim();
  return dir === "" || dir === "undefined" ? undefined : dir;
}

/** Compiles a minimal non-Node-API addon against `nodedir` with npm's own node-gyp. */
function compileForeignAddon(nodedir: string): string {
  const dir = tempDir("cairn-foreign-addon-");
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "foreign", scripts: { build: "node-gyp rebuild" } }));
  writeFileSync(
    join(dir, "binding.gyp"),
    JSON.stringify({ targets: [{ target_name: "foreign", sources: ["foreign.cc"] }] }),
  );
  writeFileSync(
    join(dir, "foreign.cc"),
    "#include <node.h>\nvoid Init(v8::Local<v8::Object> exports) {}\nNODE_MODULE(foreign, Init)\n",
  );
  execFileSync("npm", ["run", "build", "--silent"], {
    cwd: dir,
    env: { ...process.env, npm_config_nodedir: nodedir, TMPDIR: dir },
    stdio: ["ignore", "ignore", "inherit"],
  });
  return join(dir, "build", "Release", "foreign.node");
}

const foreign = foreignNodedir();
if (!foreign) console.warn("native module suite skipped: no Node.js headers of another module version were found");
// Compiling SQLite takes minutes: CI checks the printed fix on one Node.js line (CAIRN_PACKAGE_REBUILD=1).
const checkRebuild = process.env.CAIRN_PACKAGE_REBUILD === "1";

describe.skipIf(!foreign)(`SQLite's native module built for another Node.js (on ${process.version})`, () => {
  const user = userHome();
  let line = "";

  afterAll(() => {
    // Without the rebuild, put the package back the way npm installed it (the prebuilt binary).
    if (!checkRebuild) rmSync(join(driver, "build"), { recursive: true, force: true });
  });

  it("every command prints one line that says so and names the command that fixes it", () => {
    expect(cairn(user, ["remember", "--scope", "global", "Releases are tagged from main"]).status).toBe(0);
    expect(cairn(user, ["config", "set", "memories.enabled", "true"]).status).toBe(0);
    const addon = compileForeignAddon(foreign?.dir ?? "");
    mkdirSync(release, { recursive: true });
    copyFileSync(addon, join(release, "better_sqlite3.node"));
    for (const args of [
      ["status"],
      ["doctor"],
      ["recall", "releases"],
      ["remember", "x"],
      ["run"],
      ["serve", "--port", "0"],
    ]) {
      const result = cairn(user, args);
      expect(result.status, args.join(" ")).toBe(1);
      expect(result.stdout).toBe("");
      const lines = result.stderr.split("\n").filter(Boolean);
      expect(lines, args.join(" ")).toHaveLength(1);
      line = lines[0] ?? "";
      expect(line).toBe(
        `cairn: SQLite's native module (better-sqlite3) was built for another Node.js (module version ${foreign?.moduleVersion}; this Node.js ${process.version} needs ${process.versions.modules}); fix it with: npm run build-release --prefix ${driver}`,
      );
    }
  });

  it("an MCP tool call answers the same line", async () => {
    const client = new Client({ name: "cairn-package-test", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({ command: bin, args: ["mcp"], cwd: user.home, env: user.env, stderr: "pipe" }),
    );
    try {
      const result = (await client.callTool({ name: "recall", arguments: { query: "releases" } })) as {
        isError?: boolean;
        content: Array<{ text?: string }>;
      };
      expect(result.isError).toBe(true);
      expect(result.content.map((part) => part.text).join("")).toBe(line.replace(/^cairn: /, ""));
    } finally {
      await client.close();
    }
  });

  it("the session-start hook still injects the summaries, and reports the same line", () => {
    writeSummary(user.cairnHome, "global", "- Deploys go through the staging cluster first.");
    // An `exec` session starts no background run, so nothing outlives the test.
    const hook = cairn(user, ["hook", "session-start", "--agent", "codex", "--cwd", user.home], '{"source":"exec"}');
    expect(hook.status).toBe(0);
    expect(hook.stdout).toContain("Deploys go through the staging cluster first.");
    expect(hook.stderr).toBe(`cairn hook: remembered memories left out: ${line.replace(/^cairn: /, "")}\n`);
  });

  it.runIf(checkRebuild)(
    "the printed command fixes it",
    () => {
      const fix = /fix it with: (.*)$/.exec(line)?.[1] ?? "false";
      const env = { ...process.env, TMPDIR: tempDir("cairn-rebuild-") };
      const rebuilt = spawnSync("sh", ["-c", fix], { env, encoding: "utf8", stdio: "pipe" });
      expect(rebuilt.status, rebuilt.stderr).toBe(0);
      const status = cairn(user, ["recall", "--scope", "global", "releases"]);
      expect(status.stderr).toBe("");
      expect(status.stdout).toContain("Releases are tagged from main");
    },
    900_000,
  );
});
