import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { claudeCodeAdapter } from "../../src/sources/claudeCode.js";
import { type SkippedPath, walkFiles } from "../../src/sources/walk.js";
import { memoryScan } from "../helpers/memoryScan.js";

const SESSION = "5b0c1d2e-3f40-4a51-8b62-7c83d94ea0f1";
const TRANSCRIPT = fileURLToPath(
  new URL(`../fixtures/claude-code/projects/-home-dev-my-shop/${SESSION}.jsonl`, import.meta.url),
);
const jsonl = (name: string) => name.endsWith(".jsonl");

/** A scan of a Claude Code home into a fresh in-memory store: its report and the items it stored. */
const scanClaude = (home: string) => memoryScan(claudeCodeAdapter, [home]);

describe("walking session folders with symbolic links", () => {
  let dir: string;
  let root: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "cairn-links-"));
    root = join(dir, "claude", "projects");
    mkdirSync(root, { recursive: true });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("follows a link whose target is inside the sessions folder", () => {
    mkdirSync(join(root, ".moved", "-home-dev-shop"), { recursive: true });
    copyFileSync(TRANSCRIPT, join(root, ".moved", "-home-dev-shop", "s.jsonl"));
    symlinkSync(join(root, ".moved", "-home-dev-shop"), join(root, "-home-dev-shop"));
    const skipped: SkippedPath[] = [];
    // Only the linked project folder has the layout the caller accepts (2 levels).
    const found = walkFiles(root, (name, path) => jsonl(name) && !path.includes(".moved"), 3, skipped);
    expect(found).toEqual([join(root, "-home-dev-shop", "s.jsonl")]);
    expect(skipped).toEqual([]);
  });

  it("lists a real file once even when links lead to it again, under its own path", () => {
    mkdirSync(join(root, "p"));
    copyFileSync(TRANSCRIPT, join(root, "p", "b.jsonl"));
    symlinkSync(join(root, "p", "b.jsonl"), join(root, "p", "a.jsonl"));
    symlinkSync(join(root, "p"), join(root, "p", "loop"));
    symlinkSync(root, join(root, "p", "up"));
    expect(walkFiles(root, jsonl, 8)).toEqual([join(root, "p", "b.jsonl")]);
  });

  it("never lists a FIFO, directly or through a link", () => {
    mkdirSync(join(root, "p"));
    try {
      execFileSync("mkfifo", [join(root, "p", "pipe.jsonl")]);
    } catch {
      return; // No mkfifo on this system: nothing to prove.
    }
    symlinkSync(join(root, "p", "pipe.jsonl"), join(root, "p", "link.jsonl"));
    copyFileSync(TRANSCRIPT, join(root, "p", "real.jsonl"));
    execFileSync("mkfifo", [join(root, "p", "not-a-transcript.txt")]);
    const skipped: SkippedPath[] = [];
    expect(walkFiles(root, jsonl, 8, skipped)).toEqual([join(root, "p", "real.jsonl")]);
    // Both are reported, located; a FIFO without a transcript's name is none of the scan's business.
    expect(skipped).toEqual([
      {
        path: join(root, "p", "link.jsonl"),
        reason: expect.stringMatching(/^skipped .*link\.jsonl: a FIFO, never read/),
      },
      {
        path: join(root, "p", "pipe.jsonl"),
        reason: expect.stringMatching(/^skipped .*pipe\.jsonl: a FIFO, never read/),
      },
    ]);
  });

  it("reports a link that loops, or leads back to a folder holding it, instead of dropping it silently", () => {
    mkdirSync(join(root, "p"));
    copyFileSync(TRANSCRIPT, join(root, "p", "real.jsonl"));
    symlinkSync(join(root, "p", "self.jsonl"), join(root, "p", "self.jsonl"));
    symlinkSync(join(root, "p", "b"), join(root, "p", "a"));
    symlinkSync(join(root, "p", "a"), join(root, "p", "b"));
    symlinkSync(join(root, "p"), join(root, "p", "loop"));
    symlinkSync(root, join(root, "p", "up"));
    const skipped: SkippedPath[] = [];
    expect(walkFiles(root, jsonl, 8, skipped)).toEqual([join(root, "p", "real.jsonl")]);
    expect(skipped).toEqual([
      {
        path: join(root, "p", "a"),
        reason: `skipped symlink ${join(root, "p", "a")}: it loops (ELOOP) and leads to no file`,
      },
      {
        path: join(root, "p", "b"),
        reason: `skipped symlink ${join(root, "p", "b")}: it loops (ELOOP) and leads to no file`,
      },
      {
        path: join(root, "p", "loop"),
        reason: `skipped symlink ${join(root, "p", "loop")} -> ${join(root, "p")}: it loops back to a folder holding it`,
      },
      { path: join(root, "p", "self.jsonl"), reason: expect.stringContaining("it loops (ELOOP)") },
      {
        path: join(root, "p", "up"),
        reason: `skipped symlink ${join(root, "p", "up")} -> ${root}: it loops back to a folder holding it`,
      },
    ]);
  });

  it("counts a FIFO and a looping link among the scan's problems, each with its path", async () => {
    const project = join(root, "-home-dev-shop");
    mkdirSync(project);
    copyFileSync(TRANSCRIPT, join(project, `${SESSION}.jsonl`));
    try {
      execFileSync("mkfifo", [join(project, "0f0e0d0c-0000-4000-8000-000000000001.jsonl")]);
    } catch {
      return; // No mkfifo on this system: nothing to prove.
    }
    symlinkSync(
      join(project, "0f0e0d0c-0000-4000-8000-000000000002.jsonl"),
      join(project, "0f0e0d0c-0000-4000-8000-000000000002.jsonl"),
    );
    const { report, items } = await scanClaude(join(dir, "claude"));
    expect(items.count()).toBeGreaterThan(0);
    // The fixture's own lines carry a problem of their own; the two skipped paths come on top, located.
    const problems = report.files.flatMap((file) => file.problems).filter((p) => p.reason.startsWith("skipped"));
    expect(problems.map((problem) => [problem.file, problem.reason.replace(project, "<p>")]).sort()).toEqual([
      [
        join(project, "0f0e0d0c-0000-4000-8000-000000000001.jsonl"),
        "skipped <p>/0f0e0d0c-0000-4000-8000-000000000001.jsonl: a FIFO, never read as a transcript (reading it could block the scan)",
      ],
      [
        join(project, "0f0e0d0c-0000-4000-8000-000000000002.jsonl"),
        "skipped symlink <p>/0f0e0d0c-0000-4000-8000-000000000002.jsonl: it loops (ELOOP) and leads to no file",
      ],
    ]);
    expect(report.totals.problems).toBe(report.files.flatMap((file) => file.problems).length);
  });

  it("skips a link out of the sessions folder and the scan reports it", async () => {
    const outside = join(dir, "elsewhere", "-home-dev-secret");
    mkdirSync(outside, { recursive: true });
    copyFileSync(TRANSCRIPT, join(outside, `${SESSION}.jsonl`));
    symlinkSync(outside, join(root, "-home-dev-secret"));
    mkdirSync(join(root, "p"));
    symlinkSync(join(outside, `${SESSION}.jsonl`), join(root, "p", "linked.jsonl"));

    const { report, items } = await scanClaude(join(dir, "claude"));
    expect(items.count()).toBe(0);
    const problems = report.files.flatMap((file) => file.problems.map((problem) => problem.reason));
    expect(problems.sort()).toEqual([
      `skipped symlink ${join(root, "-home-dev-secret")} -> outside ${root}`,
      `skipped symlink ${join(root, "p", "linked.jsonl")} -> outside ${root}`,
    ]);
    expect(report.totals.problems).toBe(2);
  });
});
