import { afterEach, expect, it } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { DAY_MS } from "../../src/util/clock.js";
import { runCli } from "../helpers/runCli.js";
import { type TempHome, tempHome } from "../server/tempHome.js";

let temp: TempHome | undefined;
afterEach(() => temp?.cleanup());

it("doctor --retention sweeps now: a memory forgotten 40 days ago is purged, and restore then says why it cannot", {
  timeout: 120_000,
}, async () => {
  temp = tempHome();
  // Written 40 days ago through the library, whose clock can be moved; the CLI runs at the real time.
  const then = Date.now() - 40 * DAY_MS;
  const past = new Cairn({ home: temp.home, env: temp.env, clock: () => then });
  const remember = async (content: string) =>
    (await past.remember({ content, cwd: temp!.project, scope: "global" }))[0];
  const old = await remember("the staging password rotates monthly");
  const recent = await remember("the deploy window is Tuesday");
  past.forgetMemory({ id: old!.id! });
  past.close();
  const now = new Cairn({ home: temp.home, env: temp.env });
  now.forgetMemory({ id: recent!.id! });
  now.close();

  const sweep = runCli(["doctor", "--retention"], { env: temp.env });
  expect(sweep.stderr).toBe("");
  expect(sweep.stdout.trim()).toMatch(/^retention {5}1 expired memory, .*purged$/);
  const again = JSON.parse(runCli(["doctor", "--retention", "--json"], { env: temp.env }).stdout);
  expect(again.report).toMatchObject({ memories: 0 });

  const gone = runCli(["memory", "restore", String(old!.id)], { env: temp.env });
  expect(gone.status).not.toBe(0);
  expect(gone.stderr).toContain(`memory #${old!.id} was removed for good`);
  // Forgotten today: still inside the window, it comes back.
  const back = runCli(["memory", "restore", String(recent!.id)], { env: temp.env });
  expect(back.stdout).toContain(`restored #${recent!.id}`);
});
