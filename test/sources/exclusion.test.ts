import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Collector } from "../../src/collection/collector.js";
import { scanSources } from "../../src/collection/scanner.js";
import { loadConfig } from "../../src/config/load.js";
import type { ReadRequest, SourceAdapter } from "../../src/sources/adapter.js";
import { claudeCodeAdapter } from "../../src/sources/claudeCode.js";
import { openDatabase } from "../../src/store/connection.js";
import { EligibilityRepository } from "../../src/store/repositories/eligibilityRepository.js";
import { ItemsRepository } from "../../src/store/repositories/itemsRepository.js";
import { SessionsRepository } from "../../src/store/repositories/sessionsRepository.js";
import { SourceFilesRepository } from "../../src/store/repositories/sourceFilesRepository.js";

const SESSION = "5b0c1d2e-3f40-4a51-8b62-7c83d94ea0f1";
const TRANSCRIPT = fileURLToPath(
  new URL(`../fixtures/claude-code/projects/-home-dev-my-shop/${SESSION}.jsonl`, import.meta.url),
);
/** The fixture's sessions ran in /home/dev/my-shop. */
const EXCLUDE = ["/home/dev/my-shop/**"];

describe("memories.exclude", () => {
  let dir: string;
  let file: string;
  let db: ReturnType<typeof openDatabase>["db"];
  let items: ItemsRepository;
  let sessions: SessionsRepository;
  let files: SourceFilesRepository;
  let requests: ReadRequest[];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "cairn-exclude-"));
    mkdirSync(join(dir, "projects", "p"), { recursive: true });
    file = join(dir, "projects", "p", `${SESSION}.jsonl`);
    copyFileSync(TRANSCRIPT, file);
    ({ db } = openDatabase(":memory:"));
    items = new ItemsRepository(db);
    sessions = new SessionsRepository(db);
    files = new SourceFilesRepository(db);
    requests = [];
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const adapter: SourceAdapter = {
    ...claudeCodeAdapter,
    read: (request) => {
      requests.push(request);
      return claudeCodeAdapter.read(request);
    },
  };
  const scan = (exclude: string[]) =>
    scanSources(
      {
        db,
        files,
        collector: new Collector(sessions, items, {
          maxUnprocessedItems: 1,
          clock: Date.now,
          projectKeyOf: () => "git:github.com/acme/shop",
          exclude,
        }),
        clock: Date.now,
      },
      [{ adapter, roots: [dir] }],
    );
  const pending = () =>
    new EligibilityRepository(db).eligible({
      now: Date.now(),
      allowedKinds: ["interactive", "exec", "subagent", "internal"],
      oldest: 0,
      newest: Number.MAX_SAFE_INTEGER,
      scanLimit: 100,
    });

  it("reads an excluded session no further than its first bytes and stores only its row, marked", async () => {
    // A long transcript: everything past the first window must stay unread.
    const line = `${JSON.stringify({ type: "user", sessionId: SESSION, cwd: "/home/dev/my-shop", message: { role: "user", content: "x".repeat(1000) } })}\n`;
    appendFileSync(file, line.repeat(300));
    const report = await scan(EXCLUDE);
    expect(requests).toHaveLength(1);
    expect(requests[0]?.window).toBe(64 * 1024);
    expect(items.count()).toBe(0);
    expect(sessions.get(SESSION)).toMatchObject({
      cwd: "/home/dev/my-shop",
      contentHash: "excluded",
      invalidatedAt: null,
    });
    expect(sessions.countExcluded()).toBe(1);
    expect(report.files[0]?.itemsWritten).toBe(0);
    expect(pending()).toEqual([]);
    // A rescan of the unchanged file does not open it; an append probes again and still stores nothing.
    await scan(EXCLUDE);
    expect(requests).toHaveLength(1);
    appendFileSync(file, line);
    await scan(EXCLUDE);
    expect(items.count()).toBe(0);
  });

  it("takes a plain folder, with or without a trailing slash, as the folder and everything below it", async () => {
    // The session ran in /home/dev/my-shop, a subfolder of the pattern's folder.
    for (const glob of ["/home/dev", "/home/dev/"]) {
      await scan([glob]);
      expect(items.count(), glob).toBe(0);
      expect(sessions.countExcluded(), glob).toBe(1);
    }
    await scan(["/home/dev/my-sho"]);
    expect(items.count(SESSION)).toBeGreaterThan(5);
  });

  it("keeps no title of an excluded session, new or excluded after the fact", () => {
    const collector = (exclude: string[]) =>
      new Collector(sessions, items, {
        maxUnprocessedItems: 1,
        clock: Date.now,
        projectKeyOf: () => "path:/srv/secret",
        exclude,
      });
    const session = (id: string) => ({
      session: {
        id,
        agent: "pi" as const,
        kind: "interactive" as const,
        cwd: "/srv/secret/api",
        title: "migrate the Acme payroll export",
        startedAt: 1,
        updatedAt: 2,
      },
      items: [
        {
          key: "L1",
          role: "user" as const,
          text: "migrate the Acme payroll export",
          ts: 1,
          origin: { file: "/srv/s.jsonl", line: 1 },
        },
      ],
    });
    collector(["/srv/secret"]).apply(session("new-one"), null);
    expect(sessions.get("new-one")).toMatchObject({ contentHash: "excluded", title: null });

    collector([]).apply(session("later"), null);
    expect(sessions.get("later")?.title).toBe("migrate the Acme payroll export");
    collector(["/srv/secret"]).sweepExclusions();
    expect(sessions.get("later")).toMatchObject({ contentHash: "excluded", title: null });
  });

  it("matches the project key too", async () => {
    await scan(["git:github.com/acme/*"]);
    expect(items.count()).toBe(0);
    expect(sessions.countExcluded()).toBe(1);
  });

  it("takes the items of a session stored before it was excluded on the next scan; phase 1 never claims it", async () => {
    await scan([]);
    expect(items.count(SESSION)).toBeGreaterThan(5);
    expect(pending().map((row) => row.id)).toContain(SESSION);

    await scan(EXCLUDE);
    expect(items.count(SESSION)).toBe(0);
    expect(sessions.get(SESSION)).toMatchObject({ contentHash: "excluded", invalidatedAt: null });
    expect(pending().map((row) => row.id)).not.toContain(SESSION);

    // Removed from the list: the file is read again and the items come back.
    await scan([]);
    expect(items.count(SESSION)).toBeGreaterThan(5);
    expect(sessions.countExcluded()).toBe(0);
  });

  it("rejects a glob it does not understand with a one-line error naming the key", () => {
    const config = join(dir, "config.yaml");
    writeFileSync(config, "memories:\n  exclude:\n    - '~/work/{a,b}/**'\n");
    expect(() => loadConfig({ file: config, env: {} })).toThrow(/memories\.exclude\.0.*'\{' is not supported/);
    writeFileSync(config, "memories:\n  exclude:\n    - '~/work/secret-client/**'\n    - 'git:github.com/acme/*'\n");
    expect(loadConfig({ file: config, env: {} }).memories.exclude).toEqual([
      "~/work/secret-client/**",
      "git:github.com/acme/*",
    ]);
  });
});
