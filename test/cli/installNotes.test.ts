import { afterEach, expect, it } from "vitest";
import { spawnSyncTimed } from "../helpers/timedSpawn.js";
import { cliArgs, type TempHome, tempHome } from "../server/tempHome.js";

let temp: TempHome | undefined;
afterEach(() => temp?.cleanup());

it.each(["codex", "claude-code"])(
  "install %s with memories.enabled false says what is off without naming a hook the agent may not have",
  (agent) => {
    temp = tempHome({ "memories.enabled": false });
    const install = spawnSyncTimed(process.execPath, cliArgs("install", agent), { env: temp.env, encoding: "utf8" });
    expect(install.status).toBe(0);
    expect(install.stdout).toContain(
      "note: memories.enabled is false, so cairn injects no memory and starts no runs until you run 'cairn config set memories.enabled true'",
    );
    expect(install.stdout).not.toContain("the hook");
  },
);
