import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Collector } from "../../src/collection/collector.js";
import { scanSources } from "../../src/collection/scanner.js";
import { claudeCodeAdapter } from "../../src/sources/claudeCode.js";
import { openDatabase } from "../../src/store/connection.js";
import { ItemsRepository } from "../../src/store/repositories/itemsRepository.js";
import { SessionsRepository } from "../../src/store/repositories/sessionsRepository.js";
import { SourceFilesRepository } from "../../src/store/repositories/sourceFilesRepository.js";
import { tempDir } from "../helpers/tempDir.js";

const SESSION = "5b0c1d2e-3f40-4a51-8b62-7c83d94ea0f2";

describe("a transcript message with an embedded NUL", () => {
  it("keeps the text after the NUL, the NUL stored as U+FFFD, for SQLite's own functions too", async () => {
    const dir = tempDir("cairn-nul-");
    const project = join(dir, "claude", "projects", "-work-shop");
    mkdirSync(project, { recursive: true });
    const line = (uuid: string, role: "user" | "assistant", content: unknown) =>
      JSON.stringify({
        type: role,
        sessionId: SESSION,
        cwd: "/work/shop",
        uuid,
        timestamp: "2026-01-01T00:00:00Z",
        message: { role, content },
      });
    writeFileSync(
      join(project, `${SESSION}.jsonl`),
      `${[
        line("u1", "user", "the build log\u0000 says the quokka cache is stale"),
        line("u2", "assistant", [{ type: "text", text: "cleared\u0000\u0000 the quokka cache" }]),
      ].join("\n")}\n`,
    );
    const { db } = openDatabase(":memory:");
    const sessions = new SessionsRepository(db);
    const items = new ItemsRepository(db);
    const collector = new Collector(sessions, items, {
      maxUnprocessedItems: 5,
      clock: Date.now,
      projectKeyOf: () => null,
    });
    const scan = () =>
      scanSources({ db, files: new SourceFilesRepository(db), collector, clock: Date.now }, [
        { adapter: claudeCodeAdapter, roots: [join(dir, "claude")] },
      ]);
    await scan();
    const rows = db
      .prepare("SELECT text, length(text) AS sqlLength, instr(text, 'quokka') > 0 AS found FROM items ORDER BY seq")
      .all() as Array<{ text: string; sqlLength: number; found: number }>;
    expect(rows.map((row) => row.text)).toEqual([
      "the build log\uFFFD says the quokka cache is stale",
      "cleared\uFFFD\uFFFD the quokka cache",
    ]);
    expect(rows.map((row) => row.sqlLength)).toEqual(rows.map((row) => row.text.length));
    expect(rows.every((row) => row.found === 1)).toBe(true);
    // A line appended: the messages stored before are not written again (their stored text is the new one).
    appendFileSync(join(project, `${SESSION}.jsonl`), `${line("u3", "user", "thanks")}\n`);
    const again = await scan();
    expect(again.files.reduce((sum, file) => sum + file.itemsWritten, 0)).toBe(1);
    db.close();
  });
});
