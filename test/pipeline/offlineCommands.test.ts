import { describe, expect, it } from "vitest";
import type { ItemRecord } from "../../src/collection/types.js";
import {
  canonicalCommand,
  commandFamily,
  commandRuns,
  commandText,
} from "../../src/pipeline/phase1/offline/commands.js";

/** One shell call and, unless `output` is undefined, its result. */
function run(command: string, output?: string, isError = false, tool = "bash"): ItemRecord[] {
  const base = { sessionId: "s", key: "", tool, callId: "c", ts: null, originFile: null, originLine: null };
  const call: ItemRecord = {
    ...base,
    id: 1,
    seq: 1,
    role: "tool_call",
    text: JSON.stringify({ command }),
    isError: false,
  };
  if (output === undefined) return [call];
  return [call, { ...base, id: 2, seq: 2, role: "tool_result", text: output, isError }];
}

const outcome = (items: ItemRecord[]) => {
  const [first] = commandRuns(items);
  return [first?.outcome, first?.errorLine];
};

describe("offline command reading", () => {
  it.each([
    ["cd packages/app && npm run build 2>&1 | tail -3", "cd packages/app && npm run build"],
    ['npm run check 2>&1 | grep -E "error TS" | head -20', "npm run check"],
    ["pnpm test", "pnpm test"],
    ["git log --oneline | wc -l", "git log --oneline"],
    // A pipe inside quotes is the filter's pattern, not a stage; `||` is not a pipe.
    ['npm run check 2>&1 | grep -E "(error|success)" | head -20', "npm run check"],
    ["pnpm lint || pnpm lint --fix | tail -3", "pnpm lint || pnpm lint --fix"],
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

  it("names a command family by program and subcommand, and a runner's script", () => {
    expect(commandFamily("cd web && pnpm test:e2e --watch=false")).toBe("pnpm test:e2e");
    expect(commandFamily("pytest -q tests/")).toBe("pytest");
    expect(commandFamily("cd packages/agent && npm run check")).toBe("npm run check");
    expect(commandFamily("npm run version:minor")).not.toBe(commandFamily("npm run check"));
    expect(commandFamily("npx tsc --noEmit")).toBe("npx tsc");
  });

  it("drops a cd into the session's directory and makes one below it relative", () => {
    const runs = (cwd: string | null, line: string) => commandRuns(run(line, "ok"), cwd).map((r) => r.command);
    expect(runs("/home/dev/app", "cd /home/dev/app && npm test")).toEqual(["npm test"]);
    expect(runs("/home/dev/app/", "cd /home/dev/app/packages/web && pnpm lint")).toEqual([
      "cd packages/web && pnpm lint",
    ]);
    expect(runs("/home/dev/app", "cd /home/dev/other && make")).toEqual(["cd /home/dev/other && make"]);
    expect(runs("/home/dev/app", "cd packages/web && pnpm lint")).toEqual(["cd packages/web && pnpm lint"]);
    expect(runs(null, "cd /home/dev/app && npm test")).toEqual(["cd /home/dev/app && npm test"]);
  });

  describe("what a run showed", () => {
    it("a command's own exit status or failure output, and the line that says why", () => {
      const npmFailure = [
        "> app@1.0.0 check",
        "> tsc --noEmit",
        "",
        "Debugger attached.",
        "src/a.ts(3,1): error TS2345: Argument of type 'undefined' is not assignable.",
      ].join("\n");
      expect(outcome(run("npm run check", npmFailure, true))).toEqual([
        "failed",
        "src/a.ts(3,1): error TS2345: Argument of type 'undefined' is not assignable.",
      ]);
      const cp = "Debugger attached.\ncp: /opt/x/dark.json: No such file or directory\n\nCommand exited with code 1";
      expect(outcome(run("cp $(npm root -g)/x/dark.json themes/", cp, true))).toEqual([
        "failed",
        "cp: /opt/x/dark.json: No such file or directory",
      ]);
      expect(outcome(run("npm test", "Tests  12 passed (12)"))).toEqual(["succeeded", null]);
    });

    it("for a command piped into a filter, only what it printed: the exit status is the filter's", () => {
      // grep found no "error" line: it exits 1, which says nothing about the check.
      expect(outcome(run('npm run check 2>&1 | grep -E "error" | head -5', "(no output)", false))).toEqual([
        "unknown",
        null,
      ]);
      expect(outcome(run("npm run check 2>&1 | grep error", "Command exited with code 1", true))).toEqual([
        "unknown",
        null,
      ]);
      // grep found compiler errors: it exits 0, and the check failed.
      const errors = "src/a.ts(83,49): error TS2345: Argument of type 'undefined' is not assignable.";
      expect(outcome(run('npm run check 2>&1 | grep "error TS"', errors))).toEqual(["failed", errors]);
      expect(
        outcome(run("pnpm test 2>&1 | tail -3", " Test Files  4 passed (4)\n      Tests  31 passed (31)")),
      ).toEqual(["succeeded", null]);
      expect(outcome(run("pnpm test 2>&1 | tail -3", "      Tests  1 failed | 30 passed (31)", false))[0]).toBe(
        "failed",
      );
    });

    it("nothing for a program that only looks, or a call with no result", () => {
      expect(outcome(run('grep -n "borderColor" src/editor.ts', "Command exited with code 1", true))[0]).toBe(
        "unknown",
      );
      expect(outcome(run("sed -n '1,40p' src/plugin.test.ts", "  error: vi.fn(),\n  warn: vi.fn(),"))[0]).toBe(
        "unknown",
      );
      expect(outcome(run("npm test"))[0]).toBe("unknown");
    });

    it("reads Gemini CLI's shell result, old and new", () => {
      const old = (code: string) =>
        `Command: npm test\nDirectory: (root)\nStdout: ok\nStderr: (empty)\nError: (none)\nExit Code: ${code}\nSignal: (none)`;
      expect(outcome(run("npm test", old("0"), false, "run_shell_command"))[0]).toBe("succeeded");
      expect(outcome(run("npm test", old("1"), false, "run_shell_command"))[0]).toBe("failed");
      const current = "Output: 2 passing\nProcess Group PGID: 4242";
      expect(outcome(run("npm test", current, false, "run_shell_command"))[0]).toBe("succeeded");
      expect(outcome(run("npm test", "Output: (empty)\nExit Code: 2", false, "run_shell_command"))[0]).toBe("failed");
      const cancelled =
        "Command was cancelled by user before it could complete. There was no output before it was cancelled.";
      expect(outcome(run("npm test", cancelled, false, "run_shell_command"))[0]).toBe("unknown");
    });

    it("nothing for a command that had not finished when its result was recorded", () => {
      const partial = "Process running with session ID 41\n> app@1.0.0 test\n> vitest run";
      expect(outcome(run("npm test", partial))[0]).toBe("unknown");
      const background = "Command running in background with ID: bash_3. Output is being written to: /tmp/x";
      expect(outcome(run("npm run dev", background))[0]).toBe("unknown");
    });

    it("nothing for a command the user refused or aborted", () => {
      const refused = "The user doesn't want to proceed with this tool use. The tool use was rejected.";
      expect(outcome(run("mix phx.server", refused, true))[0]).toBe("unknown");
      const opencode = "> vitest\n\n<bash_metadata>\nUser aborted the command\n</bash_metadata>";
      expect(outcome(run("pnpm test", opencode, true))[0]).toBe("unknown");
      expect(outcome(run("npm test", "> app@1.0.0 test\n> node --test\n\nCommand aborted", true))[0]).toBe("unknown");
    });
  });
});
