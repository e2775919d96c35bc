import { describe, expect, it } from "vitest";
import { pushingCairn } from "../helpers/pushingCairn.js";
import { tempDir } from "../helpers/tempDir.js";

/**
 * What the offline extractor writes from one session lives side by side in the store: the fact stage's
 * supersession must not read several of the session's corrections, open-work entries or answers as one
 * statement whose value changed (a shared label with a quoted value did exactly that: each correction
 * replaced the one before, and one of eight survived).
 */
describe("one session's corrections and summary entries after the fact stage", () => {
  it("are all live", async () => {
    const home = tempDir("cairn-offline-memories-");
    const cwd = tempDir("cairn-offline-memories-repo-");
    const { cairn, push } = pushingCairn(home, { id: "s1", cwd });
    try {
      push("user", "Build the settings page.");
      push("assistant", "I built the settings page with a modal for each section.");
      push("user", "no modals! every section should stay inline on the page");
      push("assistant", "Sections are inline now, without modals.");
      push("user", "don't log the tokens, ever. the form must use the shared input component");
      push("assistant", "Removed the token logging and switched to the shared input.");
      push("user", "I reverted your router change. Keep the old routes until the migration lands.");
      push("assistant", "Understood, the old routes stay until the migration.");
      cairn.endSession("s1");
      await cairn.run();
      const live = (
        cairn.storage.db
          .prepare(
            "SELECT content FROM memories WHERE deleted_at IS NULL AND superseded_by IS NULL AND type = 'preference'",
          )
          .all() as Array<{ content: string }>
      ).map((row) => row.content);
      expect(live.sort()).toEqual(
        [
          "The user corrected the agent, in their words: I reverted your router change. Keep the old routes until the migration lands.",
          "The user corrected the agent, in their words: don't log the tokens, ever. the form must use the shared input component",
          "The user corrected the agent, in their words: no modals! every section should stay inline on the page",
        ].sort(),
      );
    } finally {
      cairn.close();
    }
  });
});
