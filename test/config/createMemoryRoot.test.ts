import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { checkpointHook } from "../../src/connectors/checkpointHook.js";
import { oneErrorLine } from "../helpers/errorLine.js";
import { mainInProcess as run } from "../helpers/mainInProcess.js";
import { tempDir } from "../helpers/tempDir.js";

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

/** A memory root that is a file: CAIRN_HOME pointed at the wrong path, the user's first mistake. */
function fileAsRoot(): { root: string; home: string } {
  const home = tempDir("cairn-root-home-");
  const root = join(home, "not-a-folder");
  writeFileSync(root, "a file, not a folder\n");
  return { root, home };
}

describe("a memory root cairn cannot use", () => {
  const says = (root: string, blocker = root) =>
    `cairn: cannot use ${root} as the memory root: a file is in the way (${blocker}); point CAIRN_HOME or --home at a folder you can write`;

  it.each([
    [["recall", "how do we deploy"]],
    [["remember", "we deploy from main"]],
    [["status"]],
    [["config", "set", "memories.enabled", "true"]],
  ])("%j: one line naming the folder, why, and what to change", async (args) => {
    const { root, home } = fileAsRoot();
    vi.stubEnv("HOME", home);
    vi.stubEnv("CAIRN_HOME", root);
    const { code, stderr } = await run(args);
    expect(code).toBe(1);
    expect(oneErrorLine(stderr)).toBe(says(root));
  });

  it("a folder below a file names the file in the way (--home)", async () => {
    const { root, home } = fileAsRoot();
    vi.stubEnv("HOME", home);
    const { code, stderr } = await run(["--home", join(root, "cairn"), "status"]);
    expect(code).toBe(1);
    expect(oneErrorLine(stderr)).toBe(says(join(root, "cairn"), root));
  });

  it("install refuses before it changes any of the agent's files", async () => {
    const { root, home } = fileAsRoot();
    const codex = join(home, ".codex");
    mkdirSync(codex);
    const config = 'model = "gpt-5-codex"\n';
    writeFileSync(join(codex, "config.toml"), config);
    vi.stubEnv("HOME", home);
    vi.stubEnv("CODEX_HOME", codex);
    vi.stubEnv("CAIRN_HOME", root);
    const { code, stderr } = await run(["install", "codex"]);
    expect(readdirSync(codex)).toEqual(["config.toml"]);
    expect(readFileSync(join(codex, "config.toml"), "utf8")).toBe(config);
    expect(code).toBe(1);
    expect(oneErrorLine(stderr)).toBe(says(root));
  });

  it("the checkpoint hook says the same", async () => {
    const { root } = fileAsRoot();
    await expect(
      checkpointHook({
        home: root,
        env: { CAIRN_MEMORIES_ENABLED: "true" },
        agent: "claude-code",
        event: "pre-compact",
        input: { session_id: "s1" },
      }),
    ).rejects.toThrow(says(root).replace(/^cairn: /, ""));
  });
});
