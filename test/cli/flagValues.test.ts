import { afterEach, describe, expect, it, vi } from "vitest";
import { mainInProcess } from "../helpers/mainInProcess.js";

afterEach(() => {
  vi.restoreAllMocks();
});

/** The CLI in-process up to argument parsing; a bad flag value stops it before any work. */
const run = mainInProcess;

describe("a bad flag value", () => {
  it.each([
    [["sessions", "--limit", "abc"], '--limit must be a whole number of at least 1 (got "abc")'],
    [["sessions", "--limit", "0"], '--limit must be a whole number of at least 1 (got "0")'],
    [["sessions", "--limit", "-3"], '--limit must be a whole number of at least 1 (got "-3")'],
    [["sessions", "--limit", "2.5"], '--limit must be a whole number of at least 1 (got "2.5")'],
    [["sessions", "--limit", "10abc"], '--limit must be a whole number of at least 1 (got "10abc")'],
    [
      ["sessions", "--agent", "nope"],
      '--agent must be one of codex, claude-code, pi, omp, gemini, opencode, push (got "nope")',
    ],
    [["recall", "q", "--k", "0"], '--k must be a whole number of at least 1 (got "0")'],
    [["recall", "q", "--k", "abc"], '--k must be a whole number of at least 1 (got "abc")'],
    [["recall", "q", "--scope", ""], '--scope must be project, global, all or a label (got "")'],
    [["remember", "x", "--scope", " "], '--scope must be project, global or a label (got " ")'],
    [["remember", "x", "--type", "nope"], "--type must be one of"],
    [["remember", "x", "--ref", ""], '--ref must be a non-empty label (got "")'],
    [["remember", "--file", ""], '--file must be the path of a JSONL file (got "")'],
    [["memory", "hints", "--limit", "0"], '--limit must be a whole number of at least 1 (got "0")'],
    [["memory", "view", "--cwd", ""], '--cwd must be a directory (got "")'],
    [["memory", "clear", "--cwd", ""], '--cwd must be a directory (got "")'],
    [["read", "memory://root", "--cwd", ""], '--cwd must be a directory (got "")'],
    [["read", "memory://root", "--offset", "-5"], '--offset must be a whole number of at least 0 (got "-5")'],
    [["mcp", "--cwd", ""], '--cwd must be a directory (got "")'],
    [["serve", "--port", "70000"], '--port must be a whole number from 0 to 65535 (got "70000")'],
    [["serve", "--port", "http"], '--port must be a whole number from 0 to 65535 (got "http")'],
    [["serve", "--host", ""], '--host must be an address to listen on (got "")'],
    [["--home", "", "status"], '--home must be a directory (got "")'],
  ])("%j fails with one line naming the flag, the value and what is allowed", async (args, message) => {
    const { code, stderr } = await run(args);
    expect(code).toBe(1);
    expect(stderr.split("\n").filter(Boolean)).toHaveLength(1);
    expect(stderr).toContain(`cairn: ${message}`);
  });
});
