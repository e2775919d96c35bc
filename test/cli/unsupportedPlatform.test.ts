import { afterEach, describe, expect, it, vi } from "vitest";
import { runCli } from "../../src/cli/runCli.js";

const realPlatform = Object.getOwnPropertyDescriptor(process, "platform")!;

/** Runs a command line in this process as if Node reported `platform`; what it wrote and its exit code. */
async function runOn(platform: NodeJS.Platform, args: string[]) {
  Object.defineProperty(process, "platform", { ...realPlatform, value: platform });
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(process.stdout, "write").mockImplementation((chunk) => out.push(String(chunk)) > 0);
  vi.spyOn(process.stderr, "write").mockImplementation((chunk) => err.push(String(chunk)) > 0);
  try {
    const exitCode = await runCli(["node", "cairn", ...args]);
    return { exitCode, stdout: out.join(""), stderr: err.join("") };
  } finally {
    vi.restoreAllMocks();
    Object.defineProperty(process, "platform", realPlatform);
  }
}

// npm refuses the install on Windows (package.json `os`); a forced install or a copied folder meets this.
describe("on Windows", () => {
  afterEach(() => {
    Object.defineProperty(process, "platform", realPlatform);
  });

  it.each([["status"], ["run", "--demo"], ["--version"], ["mcp"]])(
    "`cairn %s` refuses with one line that names WSL, and does nothing else",
    async (...args) => {
      const result = await runOn("win32", args);
      expect(result.exitCode).toBe(1);
      expect(result.stdout).toBe("");
      expect(result.stderr).toBe(
        "cairn: cairn does not run on Windows (it publishes memory through symbolic links, and no Windows machine tests it); run it inside WSL (Windows Subsystem for Linux) instead\n",
      );
    },
  );

  it.each(["linux", "darwin"] as const)("runs on %s", async (platform) => {
    const result = await runOn(platform, ["--version"]);
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^\d+\.\d+\.\d+/);
  });
});
