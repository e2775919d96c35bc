import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { BatchSubjects } from "../../src/memory/lifecycle/batchSubjects.js";
import { SUBJECT_LIMIT } from "../../src/memory/lifecycle/supersessionCandidates.js";
import { subjectKeys } from "../../src/text/subjectNames.js";
import { type TempHome, tempHome } from "../server/tempHome.js";

let temp: TempHome;
let cairn: Cairn;

beforeEach(() => {
  temp = tempHome();
  cairn = new Cairn({ home: temp.home, env: temp.env });
});

afterEach(() => {
  cairn.close();
  temp.cleanup();
});

describe("a revise batch's subject lookups, read once for the batch", () => {
  it("answer what the per-memory lookup answers, also after the batch retired some of a full list", async () => {
    const count = SUBJECT_LIMIT + 20;
    const texts = Array.from({ length: count }, (_, i) => `The billing-api service listens on port ${3000 + i}`);
    texts.push("The ledger-db service listens on port 5432", "The ledger-db service listens on port 5433");
    // Written raw (no revise): every memory of one subject is live.
    const outcomes = await cairn.memories.remember(texts.map((content) => ({ content, scope: "app" })));
    const ids = outcomes.map((o) => o.id!);
    const { storage } = cairn;
    const memories = ids.map((id) => storage.memories.get(id)!);
    const keys = subjectKeys(memories[0]!.content);
    expect(keys.length).toBeGreaterThan(0);
    const retired = new Set<number>();
    const batch = new BatchSubjects(storage, memories, retired, SUBJECT_LIMIT);
    const direct = (memory: (typeof memories)[number]) =>
      storage.memories.sharingSubject(memory.scope, subjectKeys(memory.content), SUBJECT_LIMIT);
    for (const memory of memories) expect(batch.of(memory.scope, subjectKeys(memory.content))).toEqual(direct(memory));

    // The batch retires three of the newest billing-api memories and one ledger-db memory: older
    // billing-api memories past the limit now belong to the newest live ones.
    for (const id of [ids[count - 1]!, ids[count - 5]!, ids[count - 9]!, ids[count]!]) {
      expect(cairn.memories.forget(id)).toBe(true);
      retired.add(id);
    }
    const billing = batch.of("app", keys);
    expect(billing).toEqual(direct(memories[0]!));
    expect(billing).toHaveLength(SUBJECT_LIMIT);
    expect(billing).toContain(ids[count - SUBJECT_LIMIT - 1]);
    expect(batch.of("app", subjectKeys(texts[count + 1]!))).toEqual([ids[count + 1]]);
    // A key the batch did not read is looked up directly.
    expect(batch.of("app", ["no such key"])).toEqual([]);
  });
});
