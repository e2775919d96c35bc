import { describe, expect, it } from "vitest";
import type { ItemRecord } from "../../src/collection/types.js";
import { renderSession, renderWindows } from "../../src/pipeline/phase1/renderSession.js";
import { tokenCount } from "../../src/text/tokens.js";
import { itemRecord } from "../helpers/itemRecord.js";

const item = itemRecord;

describe("renderSession", () => {
  it("keeps everything that fits, passes what the harness showed under its own role, and reports the item range", () => {
    const rendered = renderSession(
      [
        item(1, "system", "[bd prime] This is an ephemeral branch: merged to main locally"),
        item(2, "user", "fix the bug"),
        item(3, "assistant", "done"),
      ],
      { maxInputTokens: 1000, toolOutputMaxTokens: 100 },
    );
    expect(rendered).toMatchObject({ omitted: 0, itemFrom: 1, itemTo: 3 });
    // A hook's message may state a fact of the repository, but it is neither the user nor a tool result.
    expect(JSON.parse(rendered.json)).toEqual([
      { id: 1, role: "harness", text: "[bd prime] This is an ephemeral branch: merged to main locally" },
      { id: 2, role: "user", text: "fix the bug" },
      { id: 3, role: "assistant", text: "done" },
    ]);
  });

  it("cuts what the harness showed like a message, not like a tool output", () => {
    const noise = "[sync] pulled 12 issues\n".repeat(60);
    const hook = `${noise}This branch is never pushed: merge it into main locally.\n${noise}`;
    const rendered = renderSession(
      [item(1, "user", "continue"), item(2, "system", hook), item(3, "tool_result", hook)],
      { maxInputTokens: 20_000, toolOutputMaxTokens: 100 },
    );
    const [, harness, output] = JSON.parse(rendered.json) as Array<{ text: string }>;
    expect(harness?.text).toContain("merge it into main locally");
    expect(output?.text).not.toContain("merge it into main locally");
  });

  it("cuts by priority: every user message and compaction and the final answer, then failures, then the newest calls", () => {
    const items: ItemRecord[] = [];
    for (let turn = 0; turn < 60; turn++) {
      const base = turn * 5;
      items.push(item(base + 1, turn === 30 ? "compaction" : "user", `request ${turn}: no console logs in the parser`));
      items.push(item(base + 2, "tool_call", `npm test -- parser ${turn}`));
      const output = `${"PASS test line\n".repeat(40)}done ${turn}`;
      items.push({ ...item(base + 3, "tool_result", output), ...(turn === 3 ? { isError: true } : {}) });
      items.push(item(base + 4, "tool_result", `${"compiling module\n".repeat(40)}ok ${turn}`));
      items.push(item(base + 5, "assistant", `step ${turn} finished`));
    }
    const rendered = renderSession(items, { maxInputTokens: 6000, toolOutputMaxTokens: 200 });
    const kept = new Set(rendered.entries.map((entry) => entry.id));
    expect(rendered.tokens).toBeLessThanOrEqual(6000);
    expect(tokenCount(rendered.json)).toBe(rendered.tokens);
    for (const at of items)
      if (at.role === "user" || at.role === "compaction") expect(kept.has(at.id), at.text).toBe(true);
    expect(kept.has(300)).toBe(true);
    // The one failed result outranks every ordinary output; among those the newest come first.
    expect(kept.has(18)).toBe(true);
    expect(kept.has(3)).toBe(false);
    const outputs = rendered.entries.filter((entry) => entry.role === "tool_result" && !entry.failed);
    expect(outputs.length).toBeGreaterThan(0);
    expect(Math.min(...outputs.map((entry) => entry.id))).toBeGreaterThan(250);
    const notes = rendered.entries.filter((entry) => entry.role === "note");
    expect(notes.length).toBeGreaterThan(0);
    const counted = notes.reduce((sum, note) => sum + Number(/^(\d+) items omitted here/.exec(note.text)?.[1]), 0);
    expect(counted).toBe(rendered.omitted);
    expect(rendered.entries.length - notes.length + rendered.omitted).toBe(300);
  });

  it("splits a session whose user messages alone exceed the budget into windows that hold them all", () => {
    const items = Array.from({ length: 300 }, (_, i) =>
      item(
        i + 1,
        i % 3 === 2 ? "tool_result" : i % 3 ? "assistant" : "user",
        `message ${i + 1}: ${"keep the themes in rgb values ".repeat(8)}`,
      ),
    );
    const windows = renderWindows(items, { maxInputTokens: 2000, toolOutputMaxTokens: 100 });
    expect(windows.length).toBeGreaterThan(2);
    const kept = new Set(windows.flatMap((window) => window.entries.map((entry) => entry.id)));
    for (const at of items.filter((entry) => entry.role === "user")) expect(kept.has(at.id)).toBe(true);
    for (const window of windows) expect(window.tokens).toBeLessThanOrEqual(2000);
    expect(windows[0]!.itemFrom).toBe(1);
    expect(windows.at(-1)!.itemTo).toBe(300);
    for (const [index, window] of windows.entries())
      if (index > 0) expect(window.itemFrom).toBe(windows[index - 1]!.itemTo! + 1);
    // One call renders by priority alone and must leave user messages out.
    const single = renderSession(items, { maxInputTokens: 2000, toolOutputMaxTokens: 100 });
    expect(single.entries.filter((entry) => entry.role === "user").length).toBeLessThan(100);
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

  it("marks as failed a command result whose output shows a failure though the agent set no error flag", () => {
    const call = (id: number, command: string) => ({
      ...item(id, "tool_call", JSON.stringify({ command: ["bash", "-lc", command] })),
      tool: "shell",
      callId: `c${id}`,
    });
    const result = (id: number, text: string) => ({
      ...item(id + 1, "tool_result", text),
      tool: "shell",
      callId: `c${id}`,
    });
    const items = [
      item(1, "user", "run the workspace tests"),
      call(2, "cargo test --workspace"),
      result(2, "thread 'main' panicked at core/src/exec.rs:12: sandbox denied exec error, exit code: 101"),
      call(4, "cargo check --workspace"),
      result(4, "failed in sandbox: command timed out"),
      call(6, "cargo fmt"),
      result(6, ""),
      // A search that prints a line of code with "error:" in it answers a question; it did not fail.
      call(8, "grep -rn 'error:' src"),
      result(8, "src/lib.rs:3: error: unused"),
      call(10, "npm test | tail -3"),
      result(10, "Tests  2 failed | 10 passed"),
    ];
    const entries = renderSession(items, { maxInputTokens: 4000, toolOutputMaxTokens: 200 }).entries;
    const failed = entries.filter((entry) => entry.failed).map((entry) => entry.id);
    expect(failed).toEqual([3, 5, 11]);
    // The same marks when the session is too long to be rendered without counting, and they rank a
    // failure above the ordinary outputs when the budget cuts.
    const padded = [
      ...items,
      ...Array.from({ length: 200 }, (_, i) => ({
        ...item(100 + i, "tool_result", `${"compiling crate\n".repeat(30)}ok ${i}`),
        callId: `p${i}`,
      })),
    ];
    const cut = renderSession(padded, { maxInputTokens: 3000, toolOutputMaxTokens: 200 });
    expect(cut.omitted).toBeGreaterThan(0);
    expect(cut.entries.filter((entry) => entry.failed).map((entry) => entry.id)).toEqual([3, 5, 11]);
  });

  it("clips a message to fit its window under a small budget instead of leaving it out", () => {
    const pasted = `here is the log: ${"error line with details ".repeat(2000)} please fix`;
    const items = [item(1, "user", pasted), item(2, "assistant", "on it"), item(3, "user", "and no console logs!")];
    const windows = renderWindows(items, { maxInputTokens: 1000, toolOutputMaxTokens: 100 });
    const users = windows.flatMap((window) => window.entries).filter((entry) => entry.role === "user");
    expect(users.map((entry) => entry.id)).toEqual([1, 3]);
    expect(users[0]!.text).toContain("[... clipped: this message alone is longer than one request may hold ...]");
    expect(users[0]!.text.startsWith("here is the log:")).toBe(true);
    expect(users[0]!.text.endsWith("please fix")).toBe(true);
    for (const window of windows) expect(window.tokens ?? 0).toBeLessThanOrEqual(1000);
  });

  it("shows user messages and compaction summaries whole, however long, when each fits one request", () => {
    // At the default budget: a 7,000-token pasted report and a 15,000-token compaction summary.
    const report = `Here is what I found:\n${"the footer colour is wrong on the dark theme, see line 12\n".repeat(500)}use rgb values!`;
    const summary = `This session is being continued.\n${"- Errors and fixes: Dialyzer flagged the spec, fixed by widening it.\n".repeat(900)}Pending: commit the fix.`;
    const items = [
      item(1, "user", report),
      item(2, "assistant", "checking"),
      ...Array.from({ length: 40 }, (_, i) =>
        item(3 + i, "tool_result", `${"build output line\n".repeat(100)}ok ${i}`),
      ),
      item(50, "compaction", summary),
      item(51, "user", "and no console logs!"),
      item(52, "assistant", "done"),
    ];
    expect(tokenCount(report)).toBeGreaterThan(6000);
    expect(tokenCount(summary)).toBeGreaterThan(14_000);
    const windows = renderWindows(items, { maxInputTokens: 24_000, toolOutputMaxTokens: 300 });
    const entries = windows.flatMap((window) => window.entries);
    expect(entries.find((entry) => entry.id === 1)?.text).toBe(report);
    expect(entries.find((entry) => entry.id === 50)?.text).toBe(summary);
    expect(entries.find((entry) => entry.id === 51)?.text).toBe("and no console logs!");
    for (const window of windows) expect(window.tokens ?? 0).toBeLessThanOrEqual(24_000);
    // A summary longer than one request is clipped to 80 % of it, not left out, under any budget.
    const small = renderWindows([item(1, "compaction", summary), item(2, "user", "go on")], {
      maxInputTokens: 2000,
      toolOutputMaxTokens: 100,
    });
    const kept = small.flatMap((window) => window.entries);
    expect(kept.map((entry) => entry.id)).toEqual([1, 2]);
    expect(kept[0]!.text).toContain("[... clipped: this summary alone is longer than one request may hold ...]");
    expect(kept[0]!.text.endsWith("Pending: commit the fix.")).toBe(true);
    expect(tokenCount(JSON.stringify(kept[0]))).toBeGreaterThan(1200);
    for (const window of small) expect(window.tokens ?? 0).toBeLessThanOrEqual(2000);
  });

  it("keeps whole a user message that fills most of a small budget, with what followed it in its window", () => {
    // About five bytes a token: by a byte estimate of 3.6 this message is over the whole budget.
    const message = `${"keep the themes in rgb values ".repeat(640)}thanks`;
    const items = [
      item(1, "user", message),
      ...Array.from({ length: 60 }, (_, i) => item(2 + i, "tool_result", `${"build output line\n".repeat(40)}${i}`)),
      item(70, "assistant", "done"),
    ];
    expect(tokenCount(message)).toBeLessThan(5000 * 0.8);
    expect(Buffer.byteLength(message)).toBeGreaterThan(5000 * 3.6);
    const windows = renderWindows(items, { maxInputTokens: 5000, toolOutputMaxTokens: 200 });
    expect(windows.flatMap((window) => window.entries).find((entry) => entry.id === 1)?.text).toBe(message);
    // Its window goes on with what the agent did after it, up to the next always-kept item.
    expect(windows[0]!.entries.some((entry) => entry.role === "tool_result")).toBe(true);
    for (const window of windows) expect(window.tokens ?? 0).toBeLessThanOrEqual(5000);
  });

  it("shows a command that finished without output, and a long compaction summary whole", () => {
    const summary = `Summary of the earlier conversation.\n${"- Errors and fixes: the schema check failed, fixed by quoting.\n".repeat(300)}Pending: publish v0.8.0.`;
    const rendered = renderSession(
      [
        item(1, "compaction", summary),
        item(2, "tool_call", "cargo check"),
        item(3, "tool_result", ""),
        item(4, "assistant", "   "),
      ],
      { maxInputTokens: 24_000, toolOutputMaxTokens: 300 },
    );
    expect(rendered.entries.map((entry) => [entry.id, entry.role])).toEqual([
      [1, "compaction"],
      [2, "tool_call"],
      [3, "tool_result"],
    ]);
    expect(rendered.entries[0]!.text).toBe(summary);
    expect(rendered.entries[2]!.text).toBe("(no output)");
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
