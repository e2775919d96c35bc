import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DAY_MS, HOUR_MS } from "../../src/util/clock.js";
import { runCli } from "../helpers/runCli.js";
import { sessionAt } from "../helpers/sessionAt.js";
import { tempDir } from "../helpers/tempDir.js";

/** A fresh memory root and a project folder (not a git repository: its key is `path:<folder>`). */
function fresh(): { home: string; project: string; env: NodeJS.ProcessEnv } {
  const home = tempDir("cairn-why-home-");
  const project = join(tempDir("cairn-why-project-"), "shop");
  mkdirSync(project);
  return { home, project, env: { CAIRN_HOME: home } };
}

/** `cairn inject` in text and JSON: stdout stays empty, stderr and the JSON reason say why. */
function inject(env: NodeJS.ProcessEnv, cwd: string) {
  const text = runCli(["inject", "--cwd", cwd], { env });
  expect(text.status, text.stderr).toBe(0);
  expect(text.stdout).toBe("");
  const json = runCli(["inject", "--cwd", cwd, "--json"], { env });
  expect(json.status, json.stderr).toBe(0);
  const parsed = JSON.parse(json.stdout) as { text: string; reason: Record<string, unknown> };
  expect(parsed.text).toBe("");
  expect(text.stderr).toContain(`cairn inject: ${parsed.reason.message as string}`);
  return { stderr: text.stderr, reason: parsed.reason };
}

describe("an empty inject says why, on stderr and in --json, never on stdout", () => {
  it("no memory yet: nothing scanned, naming the folder and the project key looked up", () => {
    const { project, env } = fresh();
    const { stderr, reason } = inject(env, project);
    expect(stderr).toContain(`no memory to give for ${project} (project path:${project})`);
    expect(stderr).toContain("no session has been scanned yet; 'cairn run' reads your agents' sessions");
    expect(reason).toMatchObject({ code: "no_store", looked: { cwd: project, projectKeys: [`path:${project}`] } });
  });

  it("sessions elsewhere only: says how many were scanned and that none was in this folder", () => {
    const { home, project, env } = fresh();
    sessionAt(home, tempDir("cairn-why-other-"), Date.now() - 2 * DAY_MS);
    const { stderr, reason } = inject(env, project);
    expect(stderr).toContain("none of the 1 sessions scanned was in this folder or project");
    expect(reason).toMatchObject({ code: "no_sessions", sessions: { total: 0 } });
  });

  it("a session too recent: names minRolloutIdleHours and when it can be extracted", () => {
    const { home, project, env } = fresh();
    const at = Date.now() - HOUR_MS;
    sessionAt(home, project, at);
    const { stderr, reason } = inject(env, project);
    const eligible = new Date(at + 12 * HOUR_MS).toISOString().slice(0, 16).replace("T", " ");
    expect(stderr).toContain(
      "1 session of this folder: 1 too recent (idle less than memories.minRolloutIdleHours = 12 h)",
    );
    expect(stderr).toContain(`the first can be extracted from ${eligible} UTC`);
    expect(reason).toMatchObject({
      code: "too_recent",
      sessions: { total: 1, tooRecent: 1, eligibleAt: at + 12 * HOUR_MS },
    });
  });

  it("a session too old: names maxRolloutAgeDays and the value that would include it", () => {
    const { home, project, env } = fresh();
    sessionAt(home, project, Date.now() - 60 * DAY_MS - HOUR_MS);
    const { stderr, reason } = inject(env, project);
    expect(stderr).toContain(
      "1 too old (last updated more than memories.maxRolloutAgeDays = 30 days ago; to include them: cairn config set memories.maxRolloutAgeDays 61)",
    );
    expect(reason).toMatchObject({ code: "too_old", sessions: { tooOld: 1, includeWithMaxRolloutAgeDays: 61 } });
  });

  it("an excluded folder: names the memories.exclude pattern", () => {
    const { home, project, env } = fresh();
    writeFileSync(join(home, "config.yaml"), `memories:\n  exclude:\n    - "${project}"\n`);
    const { stderr, reason } = inject(env, project);
    expect(stderr).toContain(`the folder is excluded by memories.exclude ('${project}')`);
    expect(reason).toMatchObject({ code: "excluded", excludedBy: project });
  });
});
