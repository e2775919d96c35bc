import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { projectIdentity } from "../../src/project/projectKey.js";
import { NO_WORKSPACE, type ProjectList } from "../../src/read/projectList.js";
import { createHttpApp } from "../../src/server/createHttpApp.js";
import { writeProjectIndex } from "../../src/workspace/projectIndex.js";
import { type TempHome, tempHome, writeSummary } from "./tempHome.js";

// /api/projects, the memory browser's project picker: every project the store knows, not only those
// phase 2 wrote a workspace for, each chosen the way the page chooses it.

let temp: TempHome;
let cairn: Cairn;
let repo: string;
let pushed: string;

const post = (body: unknown) => ({
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body),
});

/** A checkout in `work/<folder>` whose origin remote names its project (`git:github.com/acme/<repo>`). */
function checkout(folder: string, repo = folder): string {
  const root = join(temp.root, "work", folder);
  mkdirSync(join(root, ".git"), { recursive: true });
  writeFileSync(join(root, ".git", "config"), `[remote "origin"]\n\turl = https://github.com/acme/${repo}.git\n`);
  return root;
}

beforeAll(async () => {
  temp = tempHome();
  cairn = new Cairn({ home: temp.home, env: temp.env });
  repo = checkout("widgets");
  pushed = join(temp.root, "work", "pushed");
  mkdirSync(pushed, { recursive: true });
  // Remembered only: no session, no workspace; memories keep the key, not the folder.
  await cairn.remember({ content: "Widgets ship with the blue theme by default", cwd: repo });
  // A pushed session not yet extracted, and a memory remembered there.
  cairn.appendHistory("pushed-1", { role: "user", text: "Which port does the API use?" }, { cwd: pushed });
  await cairn.remember({ content: "The pushed API listens on port 8123", cwd: pushed });
  // One project's sessions in two checkouts: the one seen last names it.
  const now = Date.now();
  cairn.appendHistory(
    "tools-1",
    { role: "user", text: "Lint the tools", ts: now - 60_000 },
    { cwd: checkout("tools-a", "tools") },
  );
  cairn.appendHistory(
    "tools-2",
    { role: "user", text: "Test the tools", ts: now - 1_000 },
    { cwd: checkout("tools-b", "tools") },
  );
  // A session of a folder memories.exclude covers names no project.
  cairn.appendHistory("secret-1", { role: "user", text: "Rotate the keys" }, { cwd: checkout("secret") });
  cairn.storage.sessions.markExcluded("secret-1");
  // A project phase 2 consolidated.
  const memories = join(temp.home, "memories");
  const key = projectIdentity(temp.project).key;
  writeSummary(temp.home, { cwd: temp.project }, "## Build\n- make release");
  writeProjectIndex(memories, [{ key, name: "project", cwds: [temp.project] }]);
  // Neither a project: the global workspace and a label.
  await cairn.remember({ content: "Prefers small commits", scope: "global" });
  await cairn.remember({ content: "Reading list: the SQLite file format", scope: "reading" });
});

afterAll(() => {
  cairn.close();
  temp.cleanup();
});

async function projects(): Promise<ProjectList> {
  const response = await createHttpApp({ cairn }).request("/api/projects", post({}));
  expect(response.status).toBe(200);
  return (await response.json()) as ProjectList;
}

/** The memories the page shows for a chosen project: by its folder when it has one, else by its key. */
async function memoriesOf(project: ProjectList["projects"][number]): Promise<string[]> {
  const scope = project.cwd ? { cwd: project.cwd } : { scope: project.key };
  const response = await createHttpApp({ cairn }).request("/api/memory/export", post({ ...scope, all: true }));
  expect(response.status).toBe(200);
  return ((await response.json()) as { memories: Array<{ content: string }> }).memories.map((m) => m.content);
}

describe("POST /api/projects", () => {
  it("lists the consolidated project first, then every project with memories or sessions, never a label", async () => {
    const list = await projects();
    expect(list.projects.map((project) => project.label)).toEqual([
      "project",
      pushed,
      join(temp.root, "work", "tools-b"),
      "git:github.com/acme/widgets",
    ]);
    expect(list.projects.map((project) => project.hasWorkspace)).toEqual([true, false, false, false]);
    expect(list.projects.map((project) => project.key)).not.toContain("reading");
    expect(list.global.key).toBe("global");
  });

  it("names a remembered-only git project by its key and chooses it by key: its memory, not an error", async () => {
    const widgets = (await projects()).projects.find((project) => project.key === "git:github.com/acme/widgets");
    expect(widgets).toMatchObject({
      label: "git:github.com/acme/widgets",
      name: "widgets",
      hasWorkspace: false,
      noWorkspace: NO_WORKSPACE.noSessions,
      memories: 1,
      sessions: 0,
      cwd: null,
      files: [],
    });
    expect(await memoriesOf(widgets as ProjectList["projects"][number])).toEqual([
      "Widgets ship with the blue theme by default",
    ]);
  });

  it("names a project whose sessions wait for extraction by their folder, and chooses it by that folder", async () => {
    const project = (await projects()).projects.find((entry) => entry.label === pushed);
    expect(project).toMatchObject({
      key: projectIdentity(pushed).key,
      hasWorkspace: false,
      // The session was pushed just now: it waits until idle, and the reason says until when.
      noWorkspace: expect.stringMatching(
        /^no workspace yet: .*; 1 still in use \(taken once idle for collection\.idleHours = \d+ h\); the first can be extracted from /,
      ),
      memories: 1,
      sessions: 1,
      cwd: pushed,
      cwds: [pushed],
    });
    // By its folder the page shows what agents there recall: the project's memories and the global ones.
    expect(await memoriesOf(project as ProjectList["projects"][number])).toEqual(
      expect.arrayContaining(["The pushed API listens on port 8123", "Prefers small commits"]),
    );
  });

  it("names a project by the folder its sessions ran in last, and counts the sessions of every folder", async () => {
    const tools = (await projects()).projects.find((project) => project.key === "git:github.com/acme/tools");
    const [older, newer] = [join(temp.root, "work", "tools-a"), join(temp.root, "work", "tools-b")];
    expect(tools).toMatchObject({ label: newer, cwds: [newer, older], cwd: newer, sessions: 2, memories: 0 });
  });

  it("keeps the consolidated project's workspace files and folder", async () => {
    const [consolidated] = (await projects()).projects;
    expect(consolidated).toMatchObject({
      key: projectIdentity(temp.project).key,
      hasWorkspace: true,
      noWorkspace: null,
      files: ["memory_summary.md"],
      cwds: [temp.project],
      cwd: temp.project,
    });
  });
});

describe("POST /api/projects: why a project's sessions have not made a workspace", () => {
  const DAY = 24 * 60 * 60 * 1000;

  it("says its sessions are too old for any run to extract, and the setting that includes them", async () => {
    const home = tempHome();
    const archive = new Cairn({ home: home.home, env: home.env });
    try {
      const old = join(home.root, "work", "archive");
      mkdirSync(old, { recursive: true });
      archive.appendHistory(
        "old-1",
        { role: "user", text: "Archive the reports", ts: Date.now() - 90 * DAY },
        { cwd: old },
      );
      const response = await createHttpApp({ cairn: archive }).request("/api/projects", post({}));
      const project = ((await response.json()) as ProjectList).projects.find((entry) => entry.label === old);
      // 'cairn run' takes none of them: sending the user there would leave the page saying the same forever.
      expect(project?.noWorkspace).toContain(
        "1 too old (last updated more than memories.maxRolloutAgeDays = 30 days ago",
      );
      expect(project?.noWorkspace).toMatch(/to include them: cairn config set memories\.maxRolloutAgeDays (9[0-9])\)$/);
      expect(project?.noWorkspace).not.toContain("'cairn run')");
    } finally {
      archive.close();
      home.cleanup();
    }
  });
});
