import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { mainInProcess } from "../helpers/mainInProcess.js";
import { tempDir } from "../helpers/tempDir.js";

afterEach(() => {
  vi.restoreAllMocks();
});

// A file named on the command line that cannot be read: one line saying why, and advice that fits it.
describe("a file given to remember or import that cannot be read", () => {
  it("says a folder is a folder, and does not tell the user to export into it", async () => {
    const dir = tempDir();
    const home = ["--home", join(dir, "home")];
    const imported = await mainInProcess([...home, "import", dir]);
    expect(imported.code).toBe(1);
    expect(imported.stderr).toBe(`cairn: import: cannot read ${dir} (EISDIR: a folder, not a file)\n`);
    const remembered = await mainInProcess([...home, "remember", "--file", dir]);
    expect(remembered.stderr).toBe(`cairn: remember: cannot read ${dir} (EISDIR: a folder, not a file)\n`);
    const transcript = await mainInProcess([...home, "remember", "a note", "--transcript-file", dir]);
    expect(transcript.stderr).toBe(
      `cairn: remember: cannot read the transcript ${dir} (EISDIR: a folder, not a file)\n`,
    );
  });

  it("says a missing file is missing, and import says how to make one", async () => {
    const dir = tempDir();
    const missing = join(dir, "memories.jsonl");
    const home = ["--home", join(dir, "home")];
    expect((await mainInProcess([...home, "import", missing])).stderr).toBe(
      `cairn: import: cannot read ${missing} (ENOENT: no such file); make one with 'cairn export > ${missing}'\n`,
    );
    expect((await mainInProcess([...home, "remember", "--file", missing])).stderr).toBe(
      `cairn: remember: cannot read ${missing} (ENOENT: no such file)\n`,
    );
  });

  it("says a path through a file is blocked by that file", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "notes"), "");
    const below = join(dir, "notes", "memories.jsonl");
    expect((await mainInProcess(["--home", join(dir, "home"), "import", below])).stderr).toBe(
      `cairn: import: cannot read ${below} (ENOTDIR: a file is in the way)\n`,
    );
  });
});
