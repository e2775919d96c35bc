import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { normalizeRemote } from "../../src/project/normalizeRemote.js";
import { projectIdentity } from "../../src/project/projectKey.js";
import { tempDir } from "../helpers/tempDir.js";

function repo(remote?: string): string {
  const root = realpathSync(tempDir("cairn-repo-"));
  mkdirSync(join(root, ".git"));
  const config = remote ? `[core]\n\tbare = false\n[remote "origin"]\n\turl = ${remote}\n` : "[core]\n";
  writeFileSync(join(root, ".git", "config"), config);
  return root;
}

describe("normalizeRemote", () => {
  it.each([
    ["git@github.com:Org/Repo.git", "github.com/org/repo"],
    ["https://github.com/Org/Repo", "github.com/org/repo"],
    ["https://token@github.com/Org/Repo.git/", "github.com/org/repo"],
    ["ssh://git@gitlab.example.com:2222/group/sub/proj.git", "gitlab.example.com/group/sub/proj"],
  ])("%s -> %s", (url, expected) => {
    expect(normalizeRemote(url)).toBe(expected);
  });

  it("rejects local paths and bare words", () => {
    expect(normalizeRemote("/srv/git/repo.git")).toBeUndefined();
    expect(normalizeRemote("repo")).toBeUndefined();
  });
});

describe("projectIdentity", () => {
  it("uses the origin remote from any subdirectory", () => {
    const root = repo("git@github.com:acme/widgets.git");
    mkdirSync(join(root, "src", "deep"), { recursive: true });
    expect(projectIdentity(join(root, "src", "deep"))).toEqual({ key: "git:github.com/acme/widgets", name: "widgets" });
  });

  it("gives every worktree of one repository the same key", () => {
    const main = repo();
    const worktree = realpathSync(tempDir("cairn-wt-"));
    const gitDir = join(main, ".git", "worktrees", "feature");
    mkdirSync(gitDir, { recursive: true });
    writeFileSync(join(gitDir, "commondir"), "../..\n");
    writeFileSync(join(worktree, ".git"), `gitdir: ${gitDir}\n`);
    expect(projectIdentity(worktree).key).toBe(`root:${main}`);
    expect(projectIdentity(main).key).toBe(`root:${main}`);
  });

  it("prefers the remote the transcript recorded, and keeps a vanished cwd as its key", () => {
    expect(projectIdentity("/gone/checkout", "https://github.com/acme/widgets").key).toBe(
      "git:github.com/acme/widgets",
    );
    expect(projectIdentity("/gone/checkout")).toEqual({ key: "path:/gone/checkout", name: "checkout" });
  });
});
