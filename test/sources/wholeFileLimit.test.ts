import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readGeminiFile } from "../../src/sources/gemini/readGeminiFile.js";
import { readJson } from "../../src/sources/opencode/jsonTree.js";
import { readPiFile } from "../../src/sources/pi/readPiFile.js";
import type { ParseProblem } from "../../src/sources/types.js";

const FIXTURES = fileURLToPath(new URL("../fixtures/", import.meta.url));
const GEMINI_JSON = join(
  FIXTURES,
  "gemini/dot-gemini/tmp/c4193238d6f030edc345c5a5d49e2e243387daa6021feeb37f6cf61cb3f0b9f1/chats/session-2025-12-01T08-00-dddd1111.json",
);
const GEMINI_JSONL = join(FIXTURES, "gemini/dot-gemini/tmp/beta/chats/session-2026-04-21T09-00-cccc1111.jsonl");
const PI_TREE = join(FIXTURES, "pi/v3-tree.jsonl");
const TOO_LARGE = /^too large to read whole \(\d+ MB, limit 0 MB\); skipped$/;

describe("files read whole have a size limit", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "cairn-whole-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("a Gemini chat or a pi tree over the limit is one clear problem, not a crash and no partial session", () => {
    for (const read of [
      () => readGeminiFile(GEMINI_JSON, 100),
      () => readGeminiFile(GEMINI_JSONL, 100),
      () => readPiFile(PI_TREE, "pi", 100),
    ]) {
      const result = read();
      expect(result.sessions).toEqual([]);
      expect(result.problems).toHaveLength(1);
      expect(result.problems[0]?.reason).toMatch(TOO_LARGE);
    }
    // Under the limit they read as before.
    expect(readGeminiFile(GEMINI_JSON).sessions).toHaveLength(1);
    expect(readPiFile(PI_TREE, "pi").sessions).toHaveLength(1);
  });

  it("an OpenCode storage document over the limit is reported by path", () => {
    const path = join(dir, "ses_1.json");
    writeFileSync(path, JSON.stringify({ id: "ses_1", title: "x".repeat(500) }));
    const problems: ParseProblem[] = [];
    expect(readJson(path, problems, 100)).toBeUndefined();
    expect(problems).toEqual([{ file: path, reason: expect.stringMatching(TOO_LARGE) }]);
    expect(readJson(path, [])).toMatchObject({ id: "ses_1" });
  });
});
