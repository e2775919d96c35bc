import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { projectIdentity } from "../../src/project/projectKey.js";
import { projectIndexProblem, workspaceForCwd, writeProjectIndex } from "../../src/workspace/projectIndex.js";
import { projectWorkspace } from "../../src/workspace/workspacePaths.js";
import { tempDir } from "../helpers/tempDir.js";

describe("the project index (memories/projects.json)", () => {
  it("finds a moved checkout by the directories its sessions were recorded in", () => {
    const root = tempDir();
    const old = join(root, "old-checkout");
    writeProjectIndex(root, [{ key: "git:example.com/acme/api", name: "api", cwds: [old] }]);
    const found = workspaceForCwd(root, join(old, "src"));
    expect(found.dir).toBe(projectWorkspace(root, "git:example.com/acme/api").dir);
    expect(projectIndexProblem(root)).toBeNull();
  });

  it("is no problem when absent, and a reported problem when damaged, while lookups fall back to identity", () => {
    const root = tempDir();
    expect(projectIndexProblem(root)).toBeNull();
    mkdirSync(root, { recursive: true });
    writeFileSync(join(root, "projects.json"), '{"version": 1, "projects": [');
    expect(projectIndexProblem(root)).toMatch(/projects\.json is not valid JSON/);
    const cwd = join(root, "somewhere");
    expect(workspaceForCwd(root, cwd).dir).toBe(projectWorkspace(root, projectIdentity(cwd).key).dir);
    writeFileSync(join(root, "projects.json"), '{"version": 1}');
    expect(projectIndexProblem(root)).toMatch(/has no "projects" list/);
  });
});
