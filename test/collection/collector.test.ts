import { beforeEach, describe, expect, it } from "vitest";
import { Collector } from "../../src/collection/collector.js";
import type { ParsedSession, SessionItem } from "../../src/sources/types.js";
import { openDatabase } from "../../src/store/connection.js";
import { ItemsRepository } from "../../src/store/repositories/itemsRepository.js";
import { SessionsRepository } from "../../src/store/repositories/sessionsRepository.js";

const info = { id: "s1", agent: "codex" as const, kind: "interactive" as const, cwd: "/w", startedAt: 1, updatedAt: 2 };

function items(from: number, to: number, role: SessionItem["role"] = "user"): SessionItem[] {
  const out: SessionItem[] = [];
  for (let n = from; n <= to; n++) out.push({ key: `L${n}`, role, text: `text ${n}`, origin: { file: "f", line: n } });
  return out;
}

describe("Collector invalidation triggers", () => {
  let sessions: SessionsRepository;
  let itemsRepo: ItemsRepository;
  let collector: Collector;
  let now = 1000;

  beforeEach(() => {
    const { db } = openDatabase(":memory:");
    sessions = new SessionsRepository(db);
    itemsRepo = new ItemsRepository(db);
    collector = new Collector(sessions, itemsRepo, {
      maxUnprocessedItems: 5,
      clock: () => now,
      projectKeyOf: () => "path:/w",
    });
  });

  it("does not invalidate at 5 unprocessed items, does at the 6th", () => {
    collector.apply({ session: info, items: items(1, 5) }, "f");
    expect(sessions.get("s1")?.invalidatedAt).toBeNull();
    collector.apply({ session: info, items: items(6, 6), partial: true }, "f");
    expect(sessions.get("s1")?.invalidatedAt).toBe(itemsRepo.maxId("s1"));
  });

  it("counts only items beyond processed_until", () => {
    collector.apply({ session: info, items: items(1, 6) }, "f");
    const mark = sessions.get("s1")!.invalidatedAt!;
    expect(sessions.markProcessed("s1", mark, mark)).toBe(true);
    collector.apply({ session: info, items: items(7, 11), partial: true }, "f");
    expect(sessions.get("s1")?.invalidatedAt).toBeNull();
    collector.apply({ session: info, items: items(12, 12), partial: true }, "f");
    expect(sessions.get("s1")?.invalidatedAt).toBe(itemsRepo.maxId("s1"));
  });

  it("marks a new session from what it inserted: its last item, however many statements and repeated keys", () => {
    // 37 items go in runs of 32, 4 and 1; a key met twice is one row.
    const read = [...items(1, 37), { ...items(3, 3)[0]!, text: "text 3, rewritten" }];
    expect(collector.apply({ session: info, items: read }, "f")).toEqual({ status: "new", written: 37 });
    expect(itemsRepo.count("s1")).toBe(37);
    expect(sessions.get("s1")?.invalidatedAt).toBe(itemsRepo.maxId("s1"));
    const { db } = openDatabase(":memory:");
    const small = new Collector(new SessionsRepository(db), new ItemsRepository(db), {
      maxUnprocessedItems: 5,
      clock: () => now,
      projectKeyOf: () => "path:/w",
    });
    // Five rows, though six items: not due.
    expect(small.apply({ session: info, items: [...items(1, 5), ...items(5, 5)] }, "f").written).toBe(5);
    expect(new SessionsRepository(db).get("s1")?.invalidatedAt).toBeNull();
  });

  it("invalidates on compaction even with few items", () => {
    collector.apply({ session: info, items: items(1, 1, "compaction") }, "f");
    expect(sessions.get("s1")?.invalidatedAt).toBe(itemsRepo.maxId("s1"));
  });

  it("invalidates on end (reset) and on idle", () => {
    collector.apply({ session: info, items: items(1, 2) }, "f");
    expect(collector.end("s1")).toBe(true);
    expect(sessions.get("s1")?.invalidatedAt).toBe(itemsRepo.maxId("s1"));
    expect(collector.end("missing")).toBe(false);

    collector.apply({ session: { ...info, id: "s2" }, items: items(1, 2) }, "f");
    now = 2 + 12 * 3_600_000;
    expect(collector.sweepIdle(12 * 3_600_000)).toBe(1);
    expect(sessions.get("s2")?.invalidatedAt).not.toBeNull();
  });

  it("a full re-read with identical content writes nothing; a changed one replaces dropped items", () => {
    const full: ParsedSession = { session: info, items: items(1, 4) };
    expect(collector.apply(full, "f").status).toBe("new");
    expect(collector.apply(full, "f")).toEqual({ status: "unchanged", written: 0 });
    const rewritten = collector.apply({ session: info, items: items(1, 2) }, "f");
    expect(rewritten.status).toBe("updated");
    expect(itemsRepo.list("s1").map((i) => i.key)).toEqual(["L1", "L2"]);
  });

  it("the push API appends items with increasing ids and the same triggers", () => {
    const ids = [1, 2, 3, 4, 5, 6].map((n) =>
      collector.append(info, { role: "user", text: `pushed ${n}`, origin: { file: "push", line: 0 } }),
    );
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(itemsRepo.list("s1").map((i) => i.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(sessions.get("s1")?.invalidatedAt).toBe(ids.at(-1));
  });

  it("marks cairn's own extraction runs as internal sessions", () => {
    collector.apply(
      {
        session: info,
        items: [
          { key: "L1", role: "user", text: "Session x\n<<<SESSION DATA abc>>>\n[]", origin: { file: "f", line: 1 } },
        ],
      },
      "f",
    );
    expect(sessions.get("s1")?.kind).toBe("internal");
    collector.apply({ session: info, items: items(2, 3), partial: true }, "f");
    expect(sessions.get("s1")?.kind).toBe("internal");
  });

  it("a session whose checkout only has a path joins the git project another session of its cwd recorded", () => {
    const keyed = new Collector(sessions, itemsRepo, {
      maxUnprocessedItems: 5,
      clock: () => now,
      projectKeyOf: (session) => (session.git?.remote ? "git:example.com/team/app" : `path:${session.cwd}`),
    });
    const apply = (id: string, remote?: string) =>
      keyed.apply({ session: { ...info, id, ...(remote ? { git: { remote } } : {}) }, items: items(1, 2) }, "f");
    apply("before");
    expect(sessions.get("before")?.projectKey).toBe("path:/w");
    apply("with-remote", "https://example.com/team/app.git");
    // The earlier path-only session of the same cwd is adopted into the remote's project...
    expect(sessions.get("before")?.projectKey).toBe("git:example.com/team/app");
    // ...and a later one joins it at once.
    apply("after");
    expect(sessions.get("after")?.projectKey).toBe("git:example.com/team/app");
    keyed.apply({ session: { ...info, id: "elsewhere", cwd: "/other" }, items: items(1, 2) }, "f");
    expect(sessions.get("elsewhere")?.projectKey).toBe("path:/other");
  });
});
