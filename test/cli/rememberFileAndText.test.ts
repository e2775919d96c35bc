import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { runCliCaptured } from "../helpers/everyDoor.js";
import { spawnSyncTimed } from "../helpers/timedSpawn.js";
import { cliArgs, type TempHome, tempHome } from "../server/tempHome.js";

let temp: TempHome | undefined;
afterEach(() => temp?.cleanup());

it("remember --file with a text as well fails in one line and stores neither", async () => {
  temp = tempHome();
  const items = join(temp.root, "items.jsonl");
  writeFileSync(items, `${JSON.stringify({ content: "Builds run on the nightly runner.", scope: "global" })}\n`);

  const both = await runCliCaptured(temp.home, ["remember", "--file", items, "also this text", "--scope", "global"]);
  expect(both.code).toBe(1);
  expect(both.stderr.split("\n").filter(Boolean)).toEqual(["cairn: remember: give the text or --file, not both"]);
  const cairn = new Cairn({ home: temp.home, env: temp.env });
  try {
    expect(cairn.storage.memories.counts().live).toBe(0);
  } finally {
    cairn.close();
  }
  // The file alone is taken.
  expect((await runCliCaptured(temp.home, ["remember", "--file", items])).code).toBe(0);
});

it("remember --file takes --scope, --ref, --type, --term and the transcript flags as every line's defaults; a line's own field wins", async () => {
  temp = tempHome();
  const items = join(temp.root, "items.jsonl");
  writeFileSync(
    items,
    [
      { content: "Builds run on the nightly runner." },
      { content: "Releases are cut on Tuesdays.", scope: "team-b", type: "decision", searchTerms: ["shipping"] },
      { content: "The staging database is reset every Sunday.", ref: "ops-notes" },
    ]
      .map((line) => JSON.stringify(line))
      .join("\n"),
  );
  const transcriptFile = join(temp.root, "session.txt");
  writeFileSync(transcriptFile, "user: when do builds run?\nassistant: nightly, on the runner.\n");
  // As a user runs it: its own process, its own directory and environment.
  const run = spawnSyncTimed(
    process.execPath,
    cliArgs(
      ...["remember", "--file", items, "--scope", "team-a", "--ref", "batch-7", "--type", "procedural"],
      ...["--term", "ci", "--term", "cron", "--transcript-file", transcriptFile, "--session-key", "sess-42"],
    ),
    { cwd: temp.project, encoding: "utf8", env: temp.env },
  );
  // The temp home is made readable by the user only, as cairn makes its own: that notice is all stderr says.
  expect(run.stderr.split("\n").filter((line) => line && !line.includes("readable by you only"))).toEqual([]);
  expect(run.status).toBe(0);
  expect(run.stdout).toMatch(/^3 remembered, 0 already known, 0 skipped$/m);

  const cairn = new Cairn({ home: temp.home, env: temp.env });
  try {
    const stored = cairn.exportMemories({ scope: "all" }).memories.map((memory) => ({
      content: memory.content.split(" ")[0],
      scope: memory.scope,
      type: memory.type,
      ref: memory.ref,
      searchTerms: memory.searchTerms,
    }));
    expect(stored).toEqual([
      { content: "Builds", scope: "team-a", type: "procedural", ref: "batch-7", searchTerms: "ci cron" },
      { content: "Releases", scope: "team-b", type: "decision", ref: "batch-7", searchTerms: "shipping" },
      { content: "The", scope: "team-a", type: "procedural", ref: "ops-notes", searchTerms: "ci cron" },
    ]);
    // The transcript is kept once for the session, and each memory of the file finds it.
    const recalled = await cairn.recall({ query: "nightly runner builds", scope: "all", expand: true });
    expect(recalled.results[0]?.content).toBe("Builds run on the nightly runner.");
    expect(recalled.results[0]?.transcript?.content).toContain("when do builds run?");
  } finally {
    cairn.close();
  }
});

it("remember --file with --transcript-file but no --session-key fails in one line and stores nothing", () => {
  temp = tempHome();
  const items = join(temp.root, "items.jsonl");
  writeFileSync(items, `${JSON.stringify({ content: "Builds run on the nightly runner." })}\n`);
  const transcriptFile = join(temp.root, "session.txt");
  writeFileSync(transcriptFile, "user: when do builds run?\n");
  const run = spawnSyncTimed(
    process.execPath,
    cliArgs("remember", "--file", items, "--transcript-file", transcriptFile),
    { cwd: temp.project, encoding: "utf8", env: temp.env },
  );
  expect(run.status).toBe(1);
  expect(run.stderr.split("\n").filter((line) => line && !line.includes("readable by you only"))).toEqual([
    `cairn: remember: ${items}:1: sessionKey is required with a transcript; nothing was stored`,
  ]);
});
