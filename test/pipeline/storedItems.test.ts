import { beforeEach, describe, expect, it } from "vitest";
import type { ItemRecord } from "../../src/collection/types.js";
import { validateConfig } from "../../src/config/load.js";
import { extractOffline } from "../../src/pipeline/phase1/offline/offlineExtractor.js";
import { renderSession } from "../../src/pipeline/phase1/renderSession.js";
import { runPhase1 } from "../../src/pipeline/phase1/runPhase1.js";
import { storedItems } from "../../src/pipeline/phase1/storedItems.js";
import type { ItemsRepository } from "../../src/store/repositories/itemsRepository.js";
import type { Storage } from "../../src/store/storage.js";
import { DAY_MS } from "../../src/util/clock.js";
import { FakeLlm } from "../helpers/fakeLlm.js";
import { addSession, memoryStorage } from "../helpers/store.js";

/** The repository, recording the ids of every page read (and refusing the whole-session read). */
function recording(repository: ItemsRepository) {
  const pages: number[][] = [];
  const reader = {
    outline: (sessionId: string) => repository.outline(sessionId),
    countWithText: (sessionId: string, roles: Iterable<string>) => repository.countWithText(sessionId, roles),
    byIds: (ids: readonly number[]) => {
      pages.push([...ids]);
      return repository.byIds(ids);
    },
  };
  return { reader, pages, read: () => pages.reduce((sum, page) => sum + page.length, 0) };
}

/** A long working session: requests, shell calls with long outputs, answers. */
function longSession(turns: number, outputBytes: number) {
  const items: Array<{ role: ItemRecord["role"]; text: string; tool?: string; callId?: string }> = [];
  for (let turn = 0; turn < turns; turn++) {
    items.push({ role: "user", text: `Step ${turn}: fix the parser. Always run the tests with pnpm test.` });
    items.push({ role: "tool_call", tool: "exec_command", callId: `c${turn}`, text: '{"cmd":"pnpm test"}' });
    const verdict = turn % 7 === 0 ? "Error: 2 tests failed" : "All tests passed";
    items.push({
      role: "tool_result",
      tool: "exec_command",
      callId: `c${turn}`,
      text: `${"x".repeat(outputBytes)}\n${verdict}`,
    });
    items.push({ role: "assistant", text: `Step ${turn} is done; the parser handles dates now.` });
  }
  return items;
}

describe("a stored session read a page at a time", () => {
  let now: number;
  let storage: Storage;
  const clock = () => now;

  beforeEach(() => {
    now = 100 * DAY_MS;
    storage = memoryStorage(clock);
  });

  it("gives every item in session order, forward and back, in pages bounded by count and bytes", () => {
    addSession(storage, clock, { id: "s", updatedAt: now - DAY_MS, items: longSession(60, 3000) });
    const { reader, pages } = recording(storage.items);
    const items = storedItems(reader, "s", { items: 16, bytes: 20_000 });
    const all = storage.items.list("s");
    expect([...items.forward()]).toEqual(all);
    expect([...items.walk("end")]).toEqual([...all.entries()].reverse());
    expect([...items.walk("start")]).toEqual([...all.entries()]);
    expect(items).toMatchObject({ count: 240, firstId: all[0]!.id, lastId: all.at(-1)!.id });
    const byId = new Map(all.map((item) => [item.id, Buffer.byteLength(item.text)]));
    for (const page of pages) {
      expect(page.length).toBeLessThanOrEqual(16);
      const bytes = page.reduce((sum, id) => sum + byId.get(id)!, 0);
      if (page.length > 1) expect(bytes).toBeLessThanOrEqual(20_000);
    }
  });

  it("puts an item larger than a page alone in its page", () => {
    addSession(storage, clock, {
      id: "s",
      updatedAt: now - DAY_MS,
      items: [
        { role: "user", text: "a" },
        { role: "tool_result", text: "y".repeat(50_000) },
        { role: "user", text: "b" },
      ],
    });
    const { reader, pages } = recording(storage.items);
    expect([...storedItems(reader, "s", { items: 16, bytes: 1000 }).forward()].map((item) => item.text.length)).toEqual(
      [1, 50_000, 1],
    );
    expect(pages.map((page) => page.length)).toEqual([1, 1, 1]);
  });

  it("counts texts that are not blank as JavaScript's trim sees them, inside SQLite", () => {
    // Every character trim removes, and two it keeps (a zero-width space, the Mongolian vowel separator).
    const blanks = "\t\n\v\f\r \u00a0\u1680\u2000\u2005\u200a\u2028\u2029\u202f\u205f\u3000\ufeff".split("");
    const texts = [...blanks.map((char) => `${char}${char}`), "\u200b", "\u180e", " x ", "\u3000y"];
    addSession(storage, clock, {
      id: "s",
      updatedAt: now - DAY_MS,
      items: texts.map((text) => ({ role: "user" as const, text })),
    });
    const expected = texts.filter((text) => text.trim().length > 0).length;
    expect(expected).toBe(4);
    expect(storage.items.countWithText("s", ["user"])).toBe(expected);
    expect(storage.items.countWithText("s", ["assistant"])).toBe(0);
  });

  it("renders a long session a page at a time, the same prompt as from all its items", () => {
    addSession(storage, clock, { id: "s", updatedAt: now - DAY_MS, items: longSession(500, 2000) });
    const options = { maxInputTokens: 2000, toolOutputMaxTokens: 100 };
    const { reader, read } = recording(storage.items);
    const rendered = renderSession(storedItems(reader, "s", { items: 8, bytes: 1 << 20 }), options);
    expect(rendered).toEqual(renderSession(storage.items.list("s"), options));
    expect(rendered.omitted).toBeGreaterThan(1900);
    // Every user message must be seen, so every item is read: once to size it, once more to render what
    // is kept, and again only for a window the tokenizer finds over its budget; never held all at once.
    const items = storage.items.list("s").length;
    expect(read()).toBeLessThanOrEqual(3 * items);
  });

  it("renders what is there when an item goes missing between two reads (another process rewrote the session)", () => {
    addSession(storage, clock, { id: "s", updatedAt: now - DAY_MS, items: longSession(3, 50) });
    const all = storage.items.list("s");
    const gone = all[5]!.id;
    const reader = {
      outline: (sessionId: string) => storage.items.outline(sessionId),
      countWithText: (sessionId: string, roles: Iterable<string>) => storage.items.countWithText(sessionId, roles) - 1,
      byIds: (ids: readonly number[]) => storage.items.byIds(ids.filter((id) => id !== gone)),
    };
    const options = { maxInputTokens: 2000, toolOutputMaxTokens: 100 };
    const rendered = renderSession(storedItems(reader, "s", { items: 4, bytes: 1 << 20 }), options);
    expect(rendered).toEqual(
      renderSession(
        all.filter((item) => item.id !== gone),
        options,
      ),
    );
  });

  it("extracts offline from pages, the same output as from the whole session", async () => {
    addSession(storage, clock, { id: "s", updatedAt: now - DAY_MS, items: longSession(200, 3000) });
    const { reader, pages } = recording(storage.items);
    const session = storage.sessions.get("s")!;
    const paged = extractOffline(session, storedItems(reader, "s", { items: 32, bytes: 1 << 20 }).forward());
    expect(paged).toEqual(extractOffline(session, storage.items.list("s")));
    expect(paged?.facts.map((fact) => fact.content)).toContain("Command that worked: `pnpm test`");
    expect(Math.max(...pages.map((page) => page.length))).toBe(32);
  });

  it("never reads a whole session in one query during phase 1, offline or with a model", async () => {
    const config = validateConfig({});
    for (const llm of [null, new FakeLlm({ fallback: () => ({ json: { rollout_summary: "", raw_memory: "" } }) })]) {
      storage = memoryStorage(clock);
      addSession(storage, clock, { id: "s", updatedAt: now - DAY_MS, items: longSession(400, 100) });
      const pages: number[] = [];
      const { byIds, list } = storage.items;
      storage.items.byIds = (ids) => {
        pages.push(ids.length);
        return byIds.call(storage.items, ids);
      };
      storage.items.list = (...args) => {
        throw new Error(`whole session read: ${args[0]}`);
      };
      const report = await runPhase1({ storage, config, clock, llm });
      expect(report.jobs.map((job) => job.error)).toEqual([null]);
      expect(pages.length).toBeGreaterThan(llm ? 0 : 6);
      expect(Math.max(...pages)).toBeLessThanOrEqual(256);
      storage.items.list = list;
    }
  });
});
