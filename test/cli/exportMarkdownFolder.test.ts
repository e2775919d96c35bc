import { readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { runCli } from "../helpers/runCli.js";
import { tempDir } from "../helpers/tempDir.js";
import { type TempHome, tempHome } from "../server/tempHome.js";

const homes: TempHome[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) home.cleanup();
});

async function store(memories: Array<{ content: string; scope: string }>): Promise<TempHome> {
  const temp = tempHome();
  homes.push(temp);
  const cairn = new Cairn({ home: temp.home, env: temp.env });
  await cairn.remember(memories);
  cairn.close();
  return temp;
}

function exportTo(temp: TempHome, dir: string) {
  return runCli(["--home", temp.home, "export", "--scope", "all", "--markdown", dir], { env: temp.env });
}

const TWO = [
  { content: "The dev server listens on port 8080", scope: "global" },
  { content: "Releases are cut on Tuesdays", scope: "team-x" },
];

describe("cairn export --markdown DIR", () => {
  it("refuses a folder holding the user's files, with one line, and leaves them as they were", async () => {
    const temp = await store(TWO);
    const dir = tempDir();
    writeFileSync(join(dir, "global.md"), "my own notes\n");
    const result = exportTo(temp, dir);
    expect(result.status).not.toBe(0);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toMatch(/holds files cairn did not write; pick an empty or new folder for --markdown/);
    expect(readFileSync(join(dir, "global.md"), "utf8")).toBe("my own notes\n");
    expect(readdirSync(dir)).toEqual(["global.md"]);
  });

  it("refuses a path that is a file, or under one, with one line", async () => {
    const temp = await store(TWO);
    const file = join(tempDir(), "passwd");
    writeFileSync(file, "root:x:0:0\n");
    for (const target of [file, join(file, "inside")]) {
      const result = exportTo(temp, target);
      expect(result.status, target).not.toBe(0);
      expect(result.stderr.trim().split("\n"), target).toHaveLength(1);
      expect(result.stderr, target).toMatch(/pick an empty or new folder for --markdown/);
      expect(result.stderr, target).not.toMatch(/EEXIST|mkdir/);
    }
    expect(readFileSync(file, "utf8")).toBe("root:x:0:0\n");
  });

  it("writes into a new folder, and refreshes a folder it wrote: a gone scope's file removed, the user's left", async () => {
    const first = await store(TWO);
    const dir = join(tempDir(), "readable");
    const made = exportTo(first, dir);
    expect(made.status, made.stderr).toBe(0);
    expect(readdirSync(dir).sort()).toEqual([".cairn-export", "global.md", "team-x.md"]);

    // The same folder from a store without team-x: refreshed, not refused.
    const second = await store([{ content: "The staging database is called orbit", scope: "global" }]);
    writeFileSync(join(dir, "added-by-me.txt"), "keep\n");
    const again = exportTo(second, dir);
    expect(again.status, again.stderr).toBe(0);
    expect(readdirSync(dir).sort()).toEqual([".cairn-export", "added-by-me.txt", "global.md"]);
    expect(readFileSync(join(dir, "global.md"), "utf8")).toContain("orbit");
    expect(readFileSync(join(dir, "added-by-me.txt"), "utf8")).toBe("keep\n");
  });

  it("replaces each file by a rename, never writing through a link into another file", async () => {
    const temp = await store(TWO);
    const dir = join(tempDir(), "readable");
    expect(exportTo(temp, dir).status).toBe(0);
    const outside = join(tempDir(), "elsewhere.md");
    writeFileSync(outside, "not cairn's\n");
    const link = join(dir, "global.md");
    rmSync(link);
    symlinkSync(outside, link);
    expect(exportTo(temp, dir).status).toBe(0);
    expect(readFileSync(outside, "utf8")).toBe("not cairn's\n");
    expect(readFileSync(link, "utf8")).toContain("port 8080");
    expect(readdirSync(dir).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });
});
