import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { injectFor } from "../../src/read/injectFor.js";
import { mainInProcess } from "../helpers/mainInProcess.js";
import { type TempHome, tempHome } from "../server/tempHome.js";

// A mistyped --cwd used to give the global memory alone, with no word that the folder does not exist:
// it read as "this project has no memory yet".

let temp: TempHome;
let cairn: Cairn;
beforeEach(async () => {
  temp = tempHome();
  cairn = new Cairn({ home: temp.home, env: temp.env });
  await cairn.remember([{ content: "I always prefer tabs over spaces", scope: "global", cwd: temp.project }]);
});
afterEach(() => {
  cairn.close();
  temp.cleanup();
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

const missingFolder = () => join(temp.root, "work", "projetc");
const warning = (folder: string) =>
  `${folder} does not exist (a mistyped --cwd?): its project cannot be told, so only memory kept under that exact path and the global memory are given`;

describe("inject for a folder that does not exist", () => {
  it("the library and the CLI's path give the global memory and say the folder is missing", async () => {
    const folder = missingFolder();
    for (const injection of [cairn.inject(folder), await injectFor({ home: temp.home, cwd: folder, env: temp.env })]) {
      expect(injection.text).toContain("I always prefer tabs over spaces");
      expect(injection.warnings).toEqual([warning(folder)]);
    }
  });

  it("cairn inject says it on stderr, its stdout still the block", async () => {
    vi.stubEnv("CAIRN_HOME", temp.home);
    const folder = missingFolder();
    const { code, stderr } = await mainInProcess(["inject", "--cwd", folder]);
    expect(code).toBe(0);
    expect(stderr).toBe(`cairn inject: ${warning(folder)}\n`);
  });

  it("an existing folder gets no such warning", async () => {
    expect(cairn.inject(temp.project).warnings).toEqual([]);
  });
});
