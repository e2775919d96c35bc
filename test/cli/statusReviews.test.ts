import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/runCli.js";
import { tempDir } from "../helpers/tempDir.js";

describe("cairn status and the review queue", () => {
  it("says how many flags wait for a person, and nothing once they are decided", () => {
    const home = tempDir("cairn-status-review-");
    const env = { CAIRN_HOME: `${home}/cairn`, HOME: home };
    expect(runCli(["status"], { env }).stdout).toMatch(/^review {7}nothing to decide$/m);
    for (const text of ["Format the code with prettier", "Format the code with biome"])
      expect(runCli(["remember", text, "--scope", "global"], { env }).status).toBe(0);
    expect(runCli(["status"], { env }).stdout).toMatch(/^review {7}1 open flag: cairn memory review --all$/m);
    expect(JSON.parse(runCli(["status", "--json"], { env }).stdout).reviews).toEqual({ open: 1 });

    expect(runCli(["memory", "review", "1", "--keep"], { env }).status).toBe(0);
    expect(runCli(["status"], { env }).stdout).toMatch(/^review {7}nothing to decide$/m);
  });
});
