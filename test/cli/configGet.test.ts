import { afterEach, expect, it } from "vitest";
import { runCliCaptured } from "../helpers/everyDoor.js";
import { type TempHome, tempHome } from "../server/tempHome.js";

let temp: TempHome | undefined;
afterEach(() => temp?.cleanup());

it("config get tells a setting that is not set from a key the settings do not have", async () => {
  temp = tempHome();
  const unset = await runCliCaptured(temp.home, ["config", "get", "llm.model"]);
  expect(unset).toMatchObject({ code: 0, stderr: "" });
  expect(unset.stdout).toBe("llm.model is not set (no default); set it with 'cairn config set llm.model <value>'\n");
  const json = await runCliCaptured(temp.home, ["config", "get", "llm.model", "--json"]);
  expect(JSON.parse(json.stdout)).toEqual({ key: "llm.model", value: null, set: false });

  expect((await runCliCaptured(temp.home, ["config", "set", "llm.model", "small-1"])).code).toBe(0);
  expect((await runCliCaptured(temp.home, ["config", "get", "llm.model"])).stdout).toBe("small-1\n");

  for (const key of ["llm.modle", "nope", "llm.model.deeper"]) {
    const unknown = await runCliCaptured(temp.home, ["config", "get", key]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe(`cairn: config: unknown key ${key}; see 'cairn config list'\n`);
  }
});
