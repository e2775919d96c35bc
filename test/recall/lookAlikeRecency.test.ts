import { describe, expect, it } from "vitest";
import { openCairn } from "../../src/index.js";
import { tempDir } from "../helpers/tempDir.js";

/**
 * Two statements that read alike and both hold, said a few days apart: the question names the thing
 * of the one said first, and recall must answer with it, not with the newer statement about the other
 * thing. A newer statement that says it is a change still goes first.
 */
/** Other memories of the project, so that words are weighed as in a store in use. */
const OTHERS = [
  "Release notes are drafted from the merged pull requests.",
  "The changelog follows the keep-a-changelog format.",
  "Crash dumps are uploaded to the symbol server after each build.",
  "Translations are pulled from the localisation service every night.",
  "The updater checks for a new version once a day.",
  "Code signing certificates expire in October.",
];

async function top(memories: string[], query: string): Promise<string | undefined> {
  const cairn = openCairn({ home: tempDir("cairn-look-alikes-"), env: {}, config: { "llm.provider": "offline" } });
  try {
    for (const content of OTHERS)
      await cairn.remember({ content, scope: "global", occurredAt: new Date(Date.UTC(2026, 3, 1)).toISOString() });
    for (const [day, content] of memories.entries())
      await cairn.remember({
        content,
        scope: "global",
        occurredAt: new Date(Date.UTC(2026, 4, 1 + day)).toISOString(),
      });
    return (await cairn.recall({ query, scope: "global" })).results[0]?.content;
  } finally {
    cairn.close();
  }
}

describe("recency between look-alikes", () => {
  it("answers about the thing the question names when the newer statement is about another", async () => {
    const installers = [
      "Windows CI builds run on windows-2022 runners.",
      "Linux CI builds run on ubuntu-24.04 runners.",
    ];
    expect(await top(installers, "what runner do the windows builds use?")).toBe(installers[0]);
    const hosts = ["The primary cache host is cache-a.internal.", "The standby cache host is cache-b.internal."];
    expect(await top(hosts, "what is the primary cache host?")).toBe(hosts[0]);
    const flags = ["The fast_search feature flag is on for staff.", "The new_editor feature flag is off for staff."];
    expect(await top(flags, "is the fast_search flag on for staff?")).toBe(flags[0]);
  });

  it("puts a change said in words of its own first when it shares two of the question's words with the older", async () => {
    const crash = [
      "Crash reports from the desktop app go to Sentry.",
      "Crash reporting switched to Instabug last sprint; symbol files are uploaded by the release pipeline.",
    ];
    expect(await top(crash, "which tool gets the crash reports?")).toBe(crash[1]);
    // One shared word of the question ("user") is what most memories share: no pair.
    const user = ["The user's laptop is an arm64 machine.", "The user signs commits with an SSH key instead of GPG."];
    expect(await top(user, "what computer does the user have?")).toBe(user[0]);
  });

  it("still puts a newer statement that says it is a change first", async () => {
    const moved = ["Windows CI builds run on windows-2019 runners.", "CI builds run on windows-2022 runners now."];
    expect(await top(moved, "what runner do the windows builds use?")).toBe(moved[1]);
  });
});
