import { afterEach, describe, expect, it, vi } from "vitest";
import { oneErrorLine } from "../helpers/errorLine.js";
import { mainInProcess as run } from "../helpers/mainInProcess.js";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a command line cairn cannot parse", () => {
  it.each([
    [["recal", "tests"], "cairn: unknown command 'recal' (did you mean recall?); run 'cairn --help' for usage"],
    [["recall"], "cairn: missing required argument 'query'; run 'cairn recall --help' for usage"],
    [["status", "--jsn"], "cairn: unknown option '--jsn' (did you mean --json?); run 'cairn status --help' for usage"],
    [["inject", "--agent"], "cairn: option '--agent <agent>' argument missing; run 'cairn inject --help' for usage"],
    [["memory", "frobnicate"], "cairn: unknown command 'frobnicate'; run 'cairn memory --help' for usage"],
    [["--bogus"], "cairn: unknown option '--bogus'; run 'cairn --help' for usage"],
  ])("%j is one line: what is wrong, a suggestion when there is one, and which help to read", async (args, line) => {
    const { code, stderr } = await run(args);
    expect(code).toBe(1);
    expect(oneErrorLine(stderr)).toBe(line);
  });

  it("help is not an error: exit code 0, nothing on stderr", async () => {
    const { code, stderr } = await run(["recall", "--help"]);
    expect(code).toBe(0);
    expect(stderr).toBe("");
  });
});
