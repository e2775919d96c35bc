import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { DAY_MS, HOUR_MS } from "../../src/util/clock.js";
import { runCli } from "../helpers/runCli.js";
import { sessionAt } from "../helpers/sessionAt.js";
import { tempDir } from "../helpers/tempDir.js";

it("the first run that skips sessions as too old says which setting includes them, once; later runs only count them", () => {
  const home = tempDir("cairn-too-old-");
  const project = join(tempDir("cairn-too-old-project-"), "shop");
  mkdirSync(project);
  sessionAt(home, project, Date.now() - 75 * DAY_MS - HOUR_MS);
  const env = { CAIRN_HOME: home };

  const first = runCli(["run"], { env });
  expect(first.status, first.stderr).toBe(0);
  expect(first.stdout).toContain(
    "skipped: 1 older than memories.maxRolloutAgeDays (to include them: cairn config set memories.maxRolloutAgeDays 76)",
  );
  const second = runCli(["run"], { env });
  expect(second.status, second.stderr).toBe(0);
  expect(second.stdout).toContain("skipped: 1 older than memories.maxRolloutAgeDays");
  expect(second.stdout).not.toContain("to include them");
  // The JSON report carries the setting on every run, for a program to act on.
  const json = runCli(["run", "--json"], { env });
  expect(JSON.parse(json.stdout).extract).toMatchObject({ pending: { tooOld: 1 }, includeTooOld: 76 });
});
