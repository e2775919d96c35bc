import { chmodSync, copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { claudeCodeAdapter } from "../../src/sources/claudeCode.js";
import { type SkippedPath, walkFiles } from "../../src/sources/walk.js";
import { tempDir } from "../helpers/tempDir.js";

const SESSION = "5b0c1d2e-3f40-4a51-8b62-7c83d94ea0f1";
const TRANSCRIPT = fileURLToPath(
  new URL(`../fixtures/claude-code/projects/-home-dev-my-shop/${SESSION}.jsonl`, import.meta.url),
);
const jsonl = (name: string) => name.endsWith(".jsonl");

// Root reads a chmod 000 folder all the same, so there the permission problem cannot be made.
const asRoot = process.getuid?.() === 0;

describe.skipIf(asRoot)("walking a folder cairn may not list (skipped as root: root ignores chmod 000)", () => {
  const locked: string[] = [];
  afterEach(() => {
    // Give the permission back, or the temp folder cannot be removed.
    for (const dir of locked.splice(0)) chmodSync(dir, 0o755);
  });

  function projectsWithLockedFolder(): { root: string; projects: string; lockedDir: string } {
    const root = tempDir("cairn-unreadable-");
    const projects = join(root, "projects");
    mkdirSync(join(projects, "-home-dev-open"), { recursive: true });
    mkdirSync(join(projects, "-home-dev-locked"), { recursive: true });
    copyFileSync(TRANSCRIPT, join(projects, "-home-dev-open", `${SESSION}.jsonl`));
    copyFileSync(TRANSCRIPT, join(projects, "-home-dev-locked", `${SESSION}.jsonl`));
    const lockedDir = join(projects, "-home-dev-locked");
    chmodSync(lockedDir, 0o000);
    locked.push(lockedDir);
    return { root, projects, lockedDir };
  }

  it("lists what it can and reports the folder it cannot list, with the reason", () => {
    const { projects, lockedDir } = projectsWithLockedFolder();
    const skipped: SkippedPath[] = [];
    expect(walkFiles(projects, jsonl, 3, skipped)).toEqual([join(projects, "-home-dev-open", `${SESSION}.jsonl`)]);
    expect(skipped).toEqual([{ path: lockedDir, reason: expect.stringMatching(/^cannot list folder \(EACCES\)/) }]);
  });

  it("hands the locked folder to the scan as a skipped path instead of dropping its sessions", async () => {
    const { root, lockedDir } = projectsWithLockedFolder();
    const found = await claudeCodeAdapter.discover(root);
    expect(found.filter((file) => file.skipped !== undefined)).toEqual([
      { path: lockedDir, agent: "claude-code", skipped: expect.stringContaining("EACCES") },
    ]);
    expect(found.filter((file) => file.skipped === undefined)).toHaveLength(1);
  });
});

describe("walking a missing folder", () => {
  it("yields nothing and reports nothing: an agent that is not installed has no sessions", () => {
    const skipped: SkippedPath[] = [];
    expect(walkFiles(join(tempDir("cairn-missing-"), "nope"), jsonl, 3, skipped)).toEqual([]);
    expect(skipped).toEqual([]);
  });
});
