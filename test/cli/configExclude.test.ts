import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openCairn } from "../../src/index.js";
import { runCli } from "../helpers/runCli.js";
import { type TempHome, tempHome } from "../server/tempHome.js";

describe("cairn config set memories.exclude", () => {
  let temp: TempHome;
  beforeEach(() => {
    temp = tempHome();
  });
  afterEach(() => temp.cleanup());

  it("says before any session is known that the patterns apply from the first scan", () => {
    const set = runCli(["config", "set", "memories.exclude", '["~/work/secret"]'], { env: temp.env });
    expect(set.status).toBe(0);
    expect(set.stdout).toContain("no sessions known yet: the patterns apply from the first scan");
  });

  it("says what each pattern covers among the known sessions and warns about one that covers nothing", () => {
    const cairn = openCairn({ home: temp.home, env: temp.env });
    const push = (id: string, cwd: string) =>
      cairn.appendHistory(id, { role: "user", text: "run the tests" }, { agent: "pi", cwd });
    push("s1", join(temp.root, "work", "secret"));
    push("s2", join(temp.root, "work", "secret", "api"));
    push("s3", join(temp.root, "work", "shop"));
    cairn.close();

    const set = runCli(["config", "set", "memories.exclude", '["~/work/secret/", "~/wrok/shop"]'], { env: temp.env });
    expect(set.status).toBe(0);
    const lines = set.stdout.split("\n");
    expect(lines).toContain("'~/work/secret/' covers 2 known sessions in 2 projects");
    expect(lines.some((line) => line.startsWith("warning: '~/wrok/shop' matches none of the known sessions"))).toBe(
      true,
    );
    const json = JSON.parse(
      runCli(["config", "set", "memories.exclude", '["~/work/shop"]', "--json"], { env: temp.env }).stdout,
    );
    expect(json.coverage).toEqual([{ pattern: "~/work/shop", sessions: 1, projects: 1 }]);
  });
});
