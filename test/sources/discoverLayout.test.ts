import { mkdirSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { claudeCodeAdapter } from "../../src/sources/claudeCode.js";
import { codexAdapter } from "../../src/sources/codex.js";
import { piAdapter } from "../../src/sources/pi.js";
import { tempDir } from "../helpers/tempDir.js";

function tree(files: string[]): string {
  const root = tempDir("cairn-layout-");
  for (const file of files) {
    mkdirSync(join(root, file, ".."), { recursive: true });
    writeFileSync(join(root, file), "{}\n");
  }
  return root;
}

const found = async (adapter: typeof codexAdapter, root: string) =>
  (await adapter.discover(root)).map((file) => relative(root, file.path)).sort();

describe("discovery roots", () => {
  it("reads an agent home by its layout, and a plain folder given with --source as it is", async () => {
    const home = tree([
      "sessions/2026/10/01/rollout-a.jsonl",
      "archived_sessions/rollout-b.jsonl",
      "history.jsonl",
      "log/x.jsonl",
    ]);
    expect(await found(codexAdapter, home)).toEqual([
      "archived_sessions/rollout-b.jsonl",
      "sessions/2026/10/01/rollout-a.jsonl",
    ]);
    const flat = tree(["rollout-c.jsonl", "nested/rollout-d.jsonl", "notes.jsonl"]);
    expect(await found(codexAdapter, flat)).toEqual(["nested/rollout-d.jsonl", "rollout-c.jsonl"]);

    const claudeHome = tree([
      "projects/-w-app/s1.jsonl",
      "projects/-w-app/s1/subagents/agent-x.jsonl",
      "history.jsonl",
    ]);
    expect(await found(claudeCodeAdapter, claudeHome)).toEqual([
      "projects/-w-app/s1.jsonl",
      "projects/-w-app/s1/subagents/agent-x.jsonl",
    ]);
    const projects = tree(["-w-app/s2.jsonl"]);
    expect(await found(claudeCodeAdapter, projects)).toEqual(["-w-app/s2.jsonl"]);

    expect(await found(piAdapter, tree(["sessions/--w--/a.jsonl"]))).toEqual(["sessions/--w--/a.jsonl"]);
    expect(await found(piAdapter, tree(["--w--/b.jsonl"]))).toEqual(["--w--/b.jsonl"]);
  });
});
