import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers/tempDir.js";

const root = join(import.meta.dirname, "..", "..");
const built = join(root, "dist", "cli", "main.js");
const bin = join(root, "dist", "cli", "main.cjs");
// The built CLI is what users run (the bin, and the ES module build of the same entry); the source
// entry runs the same code where dist/ is not built yet.
const entries: Array<[string, string[]]> = [
  ["source", ["--import", "tsx", join(root, "src", "cli", "main.ts")]],
  ...(existsSync(built) ? [["built", [built]] as [string, string[]]] : []),
  ...(existsSync(bin) ? [["bin", [bin]] as [string, string[]]] : []),
];

/** Runs the CLI with a reader that has gone away before the first line, as `cairn ... | head -0` does. */
function withClosedStdout(entry: string[], args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [...entry, ...args], {
    env: { ...process.env, CAIRN_HOME: tempDir("cairn-pipe-"), CAIRN_LLM_PROVIDER: "offline" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout.destroy();
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stderr })));
}

describe.each(entries)("the %s CLI with a closed stdout", (_name, entry) => {
  it.each(["sessions", "config list", "status", "recall anything"])(
    "%s ends quietly with exit code 0",
    async (command) => {
      expect(await withClosedStdout(entry, command.split(" "))).toEqual({ code: 0, stderr: "" });
    },
  );
});
