import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { ItemRecord } from "../../src/collection/types.js";
import { buildStage1Prompt } from "../../src/pipeline/phase1/extractSession.js";
import { renderSession } from "../../src/pipeline/phase1/renderSession.js";
import { tokenCount } from "../../src/text/tokens.js";
import { itemRecord } from "../helpers/itemRecord.js";

/**
 * A session with everything rendering has to handle: long tool outputs clipped head and end, a
 * message over its own cap, non-ASCII text, repeated outputs, and more than the budget holds. The
 * hashes pin the exact bytes sent to the model: a faster renderer must send the same prompt.
 */
function fixtureItems(): ItemRecord[] {
  const texts: Array<[ItemRecord["role"], string]> = [];
  for (let i = 0; i < 240; i++) {
    const step = i % 6;
    if (step === 0)
      texts.push(["user", `Step ${i}: migrate the billing module, keep the API stable; 日本語のテスト ${i} ✓`]);
    else if (step === 1) texts.push(["assistant", `I will run the tests for module ${i % 7} and fix what fails.`]);
    else if (step === 2) texts.push(["tool_call", JSON.stringify({ cmd: `pnpm test --filter module-${i % 7}` })]);
    else if (step === 3)
      texts.push(["tool_result", `PASS test/module-${i}.test.ts\n${"ok line\n".repeat(30 + (i % 50))}`]);
    else if (step === 4)
      texts.push([
        "tool_result",
        `${"compiling src/file.ts ...\n".repeat(200 + i)}error TS2322: type 'x' at line ${i}`,
      ]);
    else
      texts.push([
        "assistant",
        i % 60 === 5 ? "long ".repeat(9000) : `Done with step ${i}: ${"détail ".repeat(i % 13)}`,
      ]);
  }
  return texts.map(([role, text], index) => itemRecord(index + 1, role, text));
}

const sha = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 16);

describe("rendered prompt bytes", () => {
  it.each([
    { maxInputTokens: 1_000_000, toolOutputMaxTokens: 300, hash: "e980885a563c9d1b", omitted: 0, tokens: undefined },
    { maxInputTokens: 50_000, toolOutputMaxTokens: 300, hash: "e980885a563c9d1b", omitted: 0, tokens: 42853 },
    { maxInputTokens: 24_000, toolOutputMaxTokens: 300, hash: "bd1437e3c19918f8", omitted: 96, tokens: 22513 },
    { maxInputTokens: 6_000, toolOutputMaxTokens: 120, hash: "d5e919d3661b1c0f", omitted: 137, tokens: 5889 },
  ])("budget $maxInputTokens, tool outputs $toolOutputMaxTokens: the same bytes as pinned", (pinned) => {
    const rendered = renderSession(fixtureItems(), pinned);
    expect({ hash: sha(rendered.json), omitted: rendered.omitted, tokens: rendered.tokens }).toEqual({
      hash: pinned.hash,
      omitted: pinned.omitted,
      tokens: pinned.tokens,
    });
    if (rendered.tokens !== undefined) expect(tokenCount(rendered.json)).toBe(rendered.tokens);
  });

  it("puts the rendered session into the stage-1 prompt unchanged, between the boundary markers", () => {
    const session = {
      id: "s",
      agent: "codex",
      kind: "interactive",
      cwd: "/srv/app",
      startedAt: 0,
      updatedAt: 86_400_000,
    } as Parameters<typeof buildStage1Prompt>[0];
    const options = { maxInputTokens: 6_000, toolOutputMaxTokens: 120 };
    const built = buildStage1Prompt(session, fixtureItems(), options);
    expect(built.prompt).toContain(renderSession(fixtureItems(), options).json);
    expect(built.renderedTokens()).toBeLessThanOrEqual(6_000);
  });
});
