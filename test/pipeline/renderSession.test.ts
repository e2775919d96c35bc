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

  it("tells the model which tool results the agent recorded as failed", () => {
    // Codex keeps a command's exit code in the output's header, which the adapter reads off the text.
    const failed = { ...item(2, "tool_result", "FAIL cart.test.ts"), isError: true };
    const rendered = renderSession([item(1, "tool_call", "npm test -- cart"), failed, item(3, "tool_result", "ok")], {
      maxInputTokens: 1000,
      toolOutputMaxTokens: 100,
    });
    expect(JSON.parse(rendered.json)).toEqual([
      { id: 1, role: "tool_call", tool: "exec_command", text: "npm test -- cart" },
      { id: 2, role: "tool_result", tool: "exec_command", failed: true, text: "FAIL cart.test.ts" },
      { id: 3, role: "tool_result", tool: "exec_command", text: "ok" },
    ]);
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
