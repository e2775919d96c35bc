import { describe, expect, it } from "vitest";
import { buildProgram } from "../../src/cli/program.js";

describe("cairn inject --help", () => {
  it("names each agent's budget, a documented character cap with thousands separators", async () => {
    const program = await buildProgram(["inject"]);
    const help = program.commands.find((command) => command.name() === "inject")!.helpInformation();
    expect(help.replace(/\s+/g, " ")).toContain("claude-code (its 10,000-character cap)");
  });
});
