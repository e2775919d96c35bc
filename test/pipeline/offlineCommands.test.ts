import { describe, expect, it } from "vitest";
import { canonicalCommand, commandFamily, commandText } from "../../src/pipeline/phase1/offline/commands.js";

describe("offline command reading", () => {
  it.each([
    ["cd packages/app && npm run build 2>&1 | tail -3", "cd packages/app && npm run build"],
    ['npm run check 2>&1 | grep -E "error TS" | head -20', "npm run check"],
    ["pnpm test", "pnpm test"],
    ["git log --oneline | wc -l", "git log --oneline"],
  ])("%s -> %s", (line, expected) => {
    expect(canonicalCommand(line)).toBe(expected);
  });

  it("reads the command from each agent's argument shapes", () => {
    expect(commandText('{"cmd":"pnpm test"}')).toBe("pnpm test");
    expect(commandText('{"command":["bash","-lc","npm run lint 2>&1 | tail -5"]}')).toBe("npm run lint");
    expect(commandText('{"command":"cargo test -p core","description":"Run tests"}')).toBe("cargo test -p core");
    expect(commandText("{not json")).toBe("{not json");
    expect(commandText('{"path":"x"}')).toBeUndefined();
  });

  it("names a command family by program and subcommand", () => {
    expect(commandFamily("cd web && pnpm test:e2e --watch=false")).toBe("pnpm test:e2e");
    expect(commandFamily("pytest -q tests/")).toBe("pytest");
  });
});
