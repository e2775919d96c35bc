import type { Command } from "commander";
import { describe, expect, it } from "vitest";
import { buildProgram } from "../../src/cli/program.js";
import { runCli } from "../helpers/runCli.js";
import { tempDir } from "../helpers/tempDir.js";

// README: "Every listing or result command takes --json".
const resultCommands = [
  "run",
  "scan",
  "sessions",
  "extract",
  "consolidate",
  "status",
  "inject",
  "read",
  "memory view",
  "memory clear",
  "memory enqueue",
  "memory hints",
  "remember",
  "recall",
  "config list",
  "config get",
  "config set",
  "doctor",
  "install",
  "uninstall",
];

function find(program: Command, path: string): Command | undefined {
  let command: Command | undefined = program;
  for (const name of path.split(" ")) command = command?.commands.find((sub) => sub.name() === name);
  return command;
}

describe("--json", () => {
  it.each(resultCommands)("is an option of %s", async (path) => {
    const command = find(await buildProgram(), path);
    expect(command, path).toBeDefined();
    expect(command?.options.map((option) => option.long)).toContain("--json");
  });

  it("remember --json stores the memory and prints the outcome as JSON", () => {
    const env = { CAIRN_HOME: tempDir("cairn-remember-") };
    const result = runCli(["remember", "Deploys go through the staging branch first.", "--json"], { env });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([expect.objectContaining({ status: "created" })]);
    const recalled = runCli(["recall", "staging branch deploys", "--json"], { env });
    expect(JSON.stringify(JSON.parse(recalled.stdout))).toContain("staging branch first");
  });

  it("config set --json prints the stored value", () => {
    const env = { CAIRN_HOME: tempDir("cairn-config-set-") };
    const result = runCli(["config", "set", "memories.enabled", "true", "--json"], { env });
    expect(result.status, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ key: "memories.enabled", value: true });
  });
});
