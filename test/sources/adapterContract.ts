import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { Collector } from "../../src/collection/collector.js";
import { scanSources } from "../../src/collection/scanner.js";
import { type ReadResult, type SourceAdapter, TAIL_BYTES, tailHashOf } from "../../src/sources/adapter.js";
import type { ParseProblem, SessionItem } from "../../src/sources/types.js";
import { openDatabase } from "../../src/store/connection.js";
import { ItemsRepository } from "../../src/store/repositories/itemsRepository.js";
import { SessionsRepository } from "../../src/store/repositories/sessionsRepository.js";
import { SourceFilesRepository } from "../../src/store/repositories/sourceFilesRepository.js";
import { tempDir } from "../helpers/tempDir.js";

/**
 * One contract every transcript adapter meets (Hono's router suite is the model): each adapter's test
 * calls `runAdapterContract` with a small factory that writes its own records, and lists the cases its
 * format cannot express with the reason.
 */
export const contractCases = [
  "full read",
  "resume after append",
  "rewrite",
  "torn last line",
  "malformed record",
  "unknown record",
  "unreadable file",
] as const;
export type ContractCase = (typeof contractCases)[number];

/** What a factory writes: a turn of the conversation, a record the adapter does not know, or broken bytes. */
export type ContractRecord =
  | { kind: "user" | "assistant"; text: string }
  | { kind: "unknown" }
  | { kind: "malformed"; id: string };

/** The line a line-oriented factory writes for a malformed record (JSON cut short). */
export const MALFORMED_LINE = '{"malformed": ';

export interface AdapterContract {
  adapter: SourceAdapter;
  /** The session's path below a scan root, in the layout the adapter's `discover` finds. */
  file: string;
  /**
   * Writes a session holding `records` at `path`, replacing what was there. Line formats: the same
   * records give the same bytes, and more records only add lines at the end (an append).
   */
  write(path: string, records: readonly ContractRecord[]): void;
  /**
   * Where the problem for `{ kind: "malformed", id }` points: its file and line, or a reason that names
   * the record (`names`, for a database row). Default: the session file and the line holding MALFORMED_LINE.
   */
  malformedAt?(path: string, id: string): Omit<ParseProblem, "reason"> & { names?: string };
  skip?: ReadonlyArray<{ case: ContractCase; reason: string }>;
}

const turns = (count: number, from = 1): ContractRecord[] =>
  Array.from({ length: count }, (_, index) => {
    const n = from + Math.floor(index / 2);
    return index % 2 === 0
      ? { kind: "user" as const, text: `Question ${n}: why does the build fail?` }
      : { kind: "assistant" as const, text: `Answer ${n}: a missing import.` };
  });

export const readFile = (adapter: SourceAdapter, path: string, resume?: ReadResult["resume"]): Promise<ReadResult> =>
  adapter.read({ file: { path, agent: adapter.agent }, ...(resume ? { resume } : {}) });

/** Upserts by key, as the collector does with a partial read after a full one. */
export function mergeByKey(...lists: ReadonlyArray<readonly SessionItem[]>): SessionItem[] {
  const merged = new Map<string, SessionItem>();
  for (const list of lists) for (const item of list) merged.set(item.key, item);
  return [...merged.values()];
}

/** The resume state goes through JSON, as it does in the store. */
export const stored = (resume: ReadResult["resume"]): ReadResult["resume"] =>
  resume === undefined ? undefined : (JSON.parse(JSON.stringify(resume)) as ReadResult["resume"]);

const conversation = (result: ReadResult): string[] =>
  (result.sessions[0]?.items ?? [])
    .filter((item) => item.role === "user" || item.role === "assistant")
    .map((item) => `${item.role}: ${item.text}`);

/** A tail hash an adapter gives is the hash of the file's bytes before its resume offset. */
function expectTailHash(path: string, result: ReadResult): void {
  if (!result.resume || result.tailHash === undefined) return;
  const { offset } = result.resume;
  const bytes = readFileSync(path).subarray(Math.max(0, offset - TAIL_BYTES), offset);
  expect(result.tailHash).toBe(tailHashOf(bytes));
}

const expected = (records: readonly ContractRecord[]): string[] =>
  records.flatMap((record) =>
    record.kind === "user" || record.kind === "assistant" ? [`${record.kind}: ${record.text}`] : [],
  );

export function runAdapterContract(name: string, contract: AdapterContract): void {
  const { adapter } = contract;
  const skipped = new Map((contract.skip ?? []).map((entry) => [entry.case, entry.reason]));
  const fresh = (): { root: string; path: string } => {
    const root = tempDir("cairn-contract-");
    const path = join(root, contract.file);
    mkdirSync(dirname(path), { recursive: true });
    return { root, path };
  };
  const read = (path: string, resume?: ReadResult["resume"]) => readFile(adapter, path, resume);
  const test = (which: ContractCase, body: () => Promise<void>) => {
    const reason = skipped.get(which);
    if (reason === undefined) it(which, body);
    else it.skip(`${which} (skipped: ${reason})`, body);
  };

  describe(`${name}: the adapter contract`, () => {
    test("full read", async () => {
      const { root, path } = fresh();
      const records = turns(4);
      contract.write(path, records);
      const result = await read(path);
      expect(result.problems).toEqual([]);
      expectTailHash(path, result);
      expect(result.sessions).toHaveLength(1);
      expect(result.sessions[0]?.session.agent).toBe(adapter.agent);
      expect(result.sessions[0]?.partial).toBeUndefined();
      expect(conversation(result)).toEqual(expected(records));
      const items = result.sessions[0]?.items ?? [];
      expect(new Set(items.map((item) => item.key)).size).toBe(items.length);
      // Located: every item names the file (below the agent's folder) it came from.
      for (const item of items) expect(item.origin.file.startsWith(root)).toBe(true);
    });

    test("resume after append", async () => {
      const { path } = fresh();
      contract.write(path, turns(2));
      const before = readFileSync(path);
      const first = await read(path);
      contract.write(path, turns(6));
      if (first.resume) expect(readFileSync(path).subarray(0, before.length).equals(before)).toBe(true);
      const second = await read(path, stored(first.resume));
      const full = await read(path);
      expectTailHash(path, second);
      expect(second.needsFullRead).toBeUndefined();
      expect(second.sessions[0]?.partial).toBe(first.resume ? true : undefined);
      expect(mergeByKey(first.sessions[0]?.items ?? [], second.sessions[0]?.items ?? [])).toEqual(
        full.sessions[0]?.items,
      );
      expect(second.sessions[0]?.session).toEqual(full.sessions[0]?.session);
      expect(conversation(full)).toEqual(expected(turns(6)));
    });

    test("rewrite", async () => {
      const { root, path } = fresh();
      const { db } = openDatabase(":memory:");
      const sessions = new SessionsRepository(db);
      const items = new ItemsRepository(db);
      const deps = {
        db,
        files: new SourceFilesRepository(db),
        collector: new Collector(sessions, items, {
          maxUnprocessedItems: 5,
          clock: Date.now,
          projectKeyOf: () => null,
        }),
        clock: Date.now,
      };
      const scan = () => scanSources(deps, [{ adapter, roots: [root] }]);
      contract.write(path, turns(6));
      expect((await scan()).totals.imported).toBe(1);
      // A different, shorter session in the same place: what was stored must not survive.
      const replacement = turns(2, 7);
      contract.write(path, replacement);
      const rescan = await scan();
      expect(rescan.totals.problems).toBe(0);
      expect(rescan.files.map((file) => file.status)).toContain("updated");
      const stored = sessions
        .list({ agent: adapter.agent })
        .flatMap((session) => items.list(session.id))
        .filter((item) => item.role === "user" || item.role === "assistant")
        .map((item) => `${item.role}: ${item.text}`);
      expect(stored).toEqual(expected(replacement));
      expect(conversation(await read(path))).toEqual(expected(replacement));
    });

    test("torn last line", async () => {
      const { path } = fresh();
      contract.write(path, turns(3));
      const whole = readFileSync(path);
      contract.write(path, turns(2));
      const complete = readFileSync(path);
      expect(whole.subarray(0, complete.length).equals(complete)).toBe(true);
      // The agent is mid-write: half of the next line is on disk.
      const half = complete.length + Math.floor((whole.length - complete.length) / 2);
      writeFileSync(path, whole.subarray(0, half));
      const first = await read(path);
      expect(first.problems).toEqual([]);
      expectTailHash(path, first);
      expect(conversation(first)).toEqual(expected(turns(2)));
      if (first.resume) expect(first.resume.offset).toBe(complete.length);
      writeFileSync(path, whole);
      const second = await read(path, stored(first.resume));
      expect(second.problems).toEqual([]);
      expect(mergeByKey(first.sessions[0]?.items ?? [], second.sessions[0]?.items ?? [])).toEqual(
        (await read(path)).sessions[0]?.items,
      );
      expect(conversation(await read(path))).toEqual(expected(turns(3)));
    });

    test("malformed record", async () => {
      const { path } = fresh();
      const [ask, answer] = turns(2);
      const records = [ask, { kind: "malformed", id: "bad1" }, answer] as ContractRecord[];
      contract.write(path, records);
      const result = await read(path);
      const { names = "", ...at } = contract.malformedAt?.(path, "bad1") ?? {
        file: path,
        line: lineOf(path, MALFORMED_LINE),
      };
      expect(result.problems).toEqual([{ ...at, reason: expect.stringMatching(/malformed/) }]);
      expect(result.problems[0]?.reason).toContain(names);
      // The records around it are imported all the same.
      expect(conversation(result)).toEqual(expected(records));
    });

    test("unknown record", async () => {
      const { path } = fresh();
      const [ask, answer] = turns(2);
      contract.write(path, [ask!, answer!]);
      const baseline = (await read(path)).skipped;
      const records: ContractRecord[] = [ask!, { kind: "unknown" }, answer!];
      contract.write(path, records);
      const result = await read(path);
      expect(result.problems).toEqual([]);
      expect(result.skipped).toBe(baseline + 1);
      expect(conversation(result)).toEqual(expected(records));
    });

    test("unreadable file", async () => {
      const { path } = fresh();
      const result = await read(path);
      expect(result.sessions).toEqual([]);
      expect(result.problems).toEqual([{ file: path, reason: expect.stringContaining("unreadable") }]);
    });
  });
}

/** 1-based number of the first line of `path` that starts with `text`. */
function lineOf(path: string, text: string): number {
  return (
    readFileSync(path, "utf8")
      .split("\n")
      .findIndex((line) => line.startsWith(text)) + 1
  );
}
