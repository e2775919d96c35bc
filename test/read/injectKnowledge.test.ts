import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { buildInjection } from "../../src/read/inject.js";
import { injectFor } from "../../src/read/injectFor.js";
import { summaryHoldsKnowledge } from "../../src/workspace/summarySections.js";
import { spawnSyncTimed } from "../helpers/timedSpawn.js";
import { cliArgs, type TempHome, tempHome, writeSummary } from "../server/tempHome.js";

// A session pays for the injected block in its context: a summary that only says memory exists is
// not given, and the guidance explains only what the block holds.

let temp: TempHome;
beforeEach(() => {
  temp = tempHome({ "memories.enabled": true });
});
afterEach(() => temp.cleanup());

const inject = () => buildInjection({ memoriesRoot: join(temp.home, "memories"), cwd: temp.project, tokenLimit: 5000 });

/** A summary as offline consolidation writes it for sessions that taught nothing. */
const PROFILE_ONLY = [
  "# Memory: project (summary)",
  "",
  "## Profile",
  "- 2 session(s) from codex, 2026-05-01 to 2026-05-03.",
  "",
  "## What is in memory",
  "- `MEMORY.md`: preferences, decisions, procedures, failures and fixes, open work, and tasks by group, with citations.",
  "- `rollout_summaries/`: 2 session summaries; `raw_memories.md`: the detailed per-session memories.",
].join("\n");

const KNOWING = PROFILE_ONLY.replace(
  "## What is in memory",
  "## Decisions in force\n- 2026-05-03: The public API stays on REST; no GraphQL layer.\n\n## What is in memory",
);

describe("a summary without knowledge", () => {
  it("is not injected: no block at all when nothing else is given", () => {
    writeSummary(temp.home, { cwd: temp.project }, PROFILE_ONLY);
    const injection = inject();
    expect(injection.text).toBe("");
    expect(injection.project.included).toBe(false);
  });

  it("leaves the global summary its place when the project's holds nothing", () => {
    writeSummary(temp.home, { cwd: temp.project }, PROFILE_ONLY);
    writeSummary(
      temp.home,
      "global",
      "## User preferences\n- 2026-05-01: Write commit messages in the imperative mood.",
    );
    const { text } = inject();
    expect(text).toContain("Write commit messages in the imperative mood.");
    expect(text).not.toContain("session(s) from codex");
  });

  it("is injected as soon as one section holds knowledge, profile and index included", () => {
    writeSummary(temp.home, { cwd: temp.project }, KNOWING);
    const { text } = inject();
    expect(text).toContain("The public API stays on REST");
    expect(text).toContain("session(s) from codex");
  });

  it("is told apart by its sections, and text in a shape cairn did not write counts as knowledge", () => {
    expect(summaryHoldsKnowledge(PROFILE_ONLY)).toBe(false);
    expect(summaryHoldsKnowledge(KNOWING)).toBe(true);
    expect(summaryHoldsKnowledge("# Memory: x (summary)\nThe user deploys with Fly.io.")).toBe(true);
    expect(summaryHoldsKnowledge("## Profile\n- 1 session\n## Notes\n- Staging is eu-west-1")).toBe(true);
    expect(summaryHoldsKnowledge("## Profile\n- 1 session\n\n## Open work\n")).toBe(false);
  });
});

describe("the CLI", () => {
  const cli = (...args: string[]) =>
    spawnSyncTimed(process.execPath, cliArgs("--home", temp.home, ...args, "--cwd", temp.project), {
      encoding: "utf8",
      env: temp.env,
    });

  it("prints nothing to inject, and memory view says the memory holds no knowledge yet and where to read it", () => {
    writeSummary(temp.home, { cwd: temp.project }, PROFILE_ONLY);
    const inject = cli("inject");
    expect(inject.status).toBe(0);
    expect(inject.stdout).toBe("");
    expect(cli("memory", "view").stdout).toMatch(/^no memory to give for .*: its memory holds no decision/);
    const summary = join(temp.home, "memories", "projects");
    const [project] = readdirSync(summary);
    writeFileSync(join(summary, project!, "MEMORY.md"), "# Memory: project\n\n## Tasks by group\n- looked around\n");
    const view = cli("memory", "view");
    expect(view.status).toBe(0);
    expect(view.stdout).toContain("its memory holds no decision");
    expect(view.stdout).toContain("cairn read memory://root/MEMORY.md");
  });
});

describe("the guidance", () => {
  it("explains only the memory the block gives", async () => {
    writeSummary(temp.home, { cwd: temp.project }, KNOWING);
    const projectOnly = inject().text;
    expect(projectOnly).toContain("memory://root/MEMORY.md");
    expect(projectOnly).not.toContain("memory://global");
    expect(projectOnly).not.toContain('"Remembered" lists');
    expect(projectOnly).not.toContain("memory #<id>");

    writeSummary(temp.home, "global", "## User preferences\n- 2026-05-01: Keep pull requests small.");
    const withGlobal = inject().text;
    expect(withGlobal).toContain("`memory://global/...` for cross-project memory");
    expect(withGlobal).not.toContain('"Remembered" lists');

    const cairn = new Cairn({ home: temp.home, env: temp.env });
    try {
      await cairn.remember([{ content: "Always run the linter before committing", cwd: temp.project }]);
    } finally {
      cairn.close();
    }
    const withRemembered = (await injectFor({ home: temp.home, cwd: temp.project, env: temp.env })).text;
    expect(withRemembered).toContain('"Remembered" lists are what the user stored');
    expect(withRemembered).toContain("  memory #<id>\n");
    expect(withRemembered).toContain("Always run the linter before committing");
  });

  it("leaves out the handbook and global paragraphs when only a remembered list is given", async () => {
    const cairn = new Cairn({ home: temp.home, env: temp.env });
    try {
      await cairn.remember([{ content: "Use the staging database for manual tests", cwd: temp.project }]);
    } finally {
      cairn.close();
    }
    const { text } = await injectFor({ home: temp.home, cwd: temp.project, env: temp.env });
    expect(text).toContain("Use the staging database for manual tests");
    expect(text).toContain('"Remembered" lists');
    expect(text).not.toContain("memory://root/MEMORY.md");
    expect(text).not.toContain("memory://global");
    expect(text).not.toContain("More is available");
  });
});
