import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { runCli } from "../helpers/runCli.js";
import { type TempHome, tempHome } from "../server/tempHome.js";

describe("cairn run reports what the revise step did", () => {
  let temp: TempHome;
  beforeAll(() => {
    temp = tempHome();
  });
  afterAll(() => temp.cleanup());

  it("says how many memories were superseded and how many pairs wait for a person", async () => {
    // Written raw, as extraction writes facts: their revise jobs wait for the next cycle.
    const cairn = new Cairn({ home: temp.home, env: temp.env });
    for (const content of [
      "The API listens on port 3000",
      "The API listens on port 8080",
      "Format the code with prettier",
      "Format the code with biome",
    ])
      await cairn.memories.remember({ content, scope: "global" });
    cairn.close();

    const run = runCli(["run"], { env: temp.env });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      "memories: 1 older memory superseded, 1 pair flagged for review (cairn memory review --all)",
    );
    // Nothing left to revise: the next run says nothing about it.
    const again = runCli(["run", "--json"], { env: temp.env });
    expect(JSON.parse(again.stdout).revise).toMatchObject({ superseded: [], flagged: [], done: 0 });
  });
});
