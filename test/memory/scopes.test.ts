import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { projectKeysOnce, recallScopes, rememberScope } from "../../src/memory/scopes.js";
import { projectIdentity } from "../../src/project/projectKey.js";
import { tempDir } from "../helpers/tempDir.js";

describe("memory scopes", () => {
  const cwd = tempDir("cairn-scopes-");
  const project = projectIdentity(cwd).key;

  it("remember files under the project of cwd by default, as the user's statement", () => {
    expect(rememberScope({ content: "use pnpm" }, cwd)).toEqual({ content: "use pnpm", scope: project, who: "user" });
    expect(rememberScope({ content: "x", scope: "project", who: "agent" }, cwd)).toMatchObject({
      scope: project,
      who: "agent",
    });
    expect(rememberScope({ content: "x", scope: "global" }, cwd).scope).toBe("global");
    expect(rememberScope({ content: "x", scope: "team-notes" }, cwd).scope).toBe("team-notes");
  });

  it("a command's project keys: each folder's key as projectIdentity gives it, looked up once", () => {
    const repo = tempDir("cairn-scopes-repo-");
    mkdirSync(join(repo, ".git"));
    const sub = join(repo, "src");
    mkdirSync(sub);
    const keyOf = projectKeysOnce();
    const key = projectIdentity(sub).key;
    expect(keyOf(sub)).toBe(key);
    expect(keyOf(cwd)).toBe(project);
    expect(rememberScope({ content: "x" }, sub, keyOf).scope).toBe(key);
    // The folder is not looked at again within the command: the repository going away changes nothing.
    rmSync(join(repo, ".git"), { recursive: true });
    expect(projectIdentity(sub).key).not.toBe(key);
    expect(keyOf(sub)).toBe(key);
  });

  it("recall searches the project of cwd plus global by default, everything with all, else the label", () => {
    expect(recallScopes(undefined, cwd)).toEqual([project, "global"]);
    expect(recallScopes("project", cwd)).toEqual([project, "global"]);
    expect(recallScopes("all", cwd)).toBe("all");
    expect(recallScopes("global", cwd)).toEqual(["global"]);
  });
});
