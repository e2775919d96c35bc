import { describe, expect, it } from "vitest";
import { renderSession } from "../../src/pipeline/phase1/renderSession.js";
import { tokenCount } from "../../src/text/tokens.js";
import { itemRecord } from "../helpers/itemRecord.js";

const item = itemRecord;

describe("renderSession", () => {
  it("keeps everything that fits, drops system items, and reports the item range", () => {
    const rendered = renderSession(
      [item(1, "system", "injected"), item(2, "user", "fix the bug"), item(3, "assistant", "done")],
      {
        maxInputTokens: 1000,
        toolOutputMaxTokens: 100,
      },
    );
    expect(rendered.entries.map((entry) => entry.id)).toEqual([2, 3]);
    expect(rendered).toMatchObject({ omitted: 0, itemFrom: 1, itemTo: 3 });
    expect(JSON.parse(rendered.json)).toEqual([
      { id: 2, role: "user", text: "fix the bug" },
      { id: 3, role: "assistant", text: "done" },
    ]);
  });

  it("cuts at item boundaries to the budget, keeping the start and the end and saying what was left out", () => {
    const items = Array.from({ length: 400 }, (_, i) =>
      item(i + 1, i % 2 ? "assistant" : "user", `message number ${i + 1} about the parser and its tests`),
    );
    const rendered = renderSession(items, { maxInputTokens: 2000, toolOutputMaxTokens: 100 });
    expect(rendered.tokens).toBeLessThanOrEqual(2000);
    expect(tokenCount(rendered.json)).toBe(rendered.tokens);
    expect(rendered.entries[0]?.id).toBe(1);
    expect(rendered.entries.at(-1)?.id).toBe(400);
    const note = rendered.entries.find((entry) => entry.role === "note");
    expect(note?.text).toBe(`${rendered.omitted} items omitted here to fit the input budget`);
    expect(rendered.entries.length - 1 + rendered.omitted).toBe(400);
  });

  it("clips a long tool output to its own budget, keeping its head and its end", () => {
    const output = `${"progress line\n".repeat(2000)}FINAL ERROR: disk full`;
    const rendered = renderSession([item(1, "tool_result", output)], {
      maxInputTokens: 100_000,
      toolOutputMaxTokens: 200,
    });
    const text = rendered.entries[0]!.text;
    expect(text.length).toBeLessThan(2000);
    expect(text).toContain("[... clipped ...]");
    expect(text.endsWith("FINAL ERROR: disk full")).toBe(true);
  });

  it("redacts secrets in every item before anything else sees them", () => {
    const rendered = renderSession([item(1, "user", "export GITHUB_TOKEN=ghp_R8x2Lk9QmZpV4tWn7YbC3dFhJ5sA1eG6uK0o")], {
      maxInputTokens: 1000,
      toolOutputMaxTokens: 100,
    });
    expect(rendered.json).not.toContain("ghp_R8x2");
    expect(rendered.json).toContain("REDACTED");
  });
});
