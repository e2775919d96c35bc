import { readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { describe, expect, it } from "vitest";
import { sourceFiles } from "../helpers/sourceFiles.js";

const SRC = join(import.meta.dirname, "..", "..", "src");

describe("the job queue's workers", () => {
  // A claimed job spends its attempt only once `start` marks its work begun (src/store/queue/jobQueue.ts):
  // a worker that never calls it would have its jobs given back, unspent, by every crash they cause.
  it("mark when their work on a claimed job starts: every file that claims also calls start", () => {
    const claiming = sourceFiles(SRC)
      .map((file) => relative(SRC, file))
      .filter((file) => !file.startsWith(`store${sep}queue${sep}`))
      .map((file) => ({ file, text: readFileSync(join(SRC, file), "utf8") }))
      .filter(({ text }) => /\bjobs\.claim\(/.test(text));
    expect(claiming.length).toBeGreaterThanOrEqual(6);
    expect(claiming.filter(({ text }) => !/\bjobs\.start\(/.test(text)).map(({ file }) => file)).toEqual([]);
  });
});
