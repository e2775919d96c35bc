import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { PURGED_MARK, scrubText } from "../../src/store/scrubText.js";
import { scrubWorkspaceText } from "../../src/workspace/scrubWorkspaceText.js";
import { tempDir } from "../helpers/tempDir.js";

// A text with a quote and a backslash: JSON stores it escaped, so a plain search would miss it there.
const SECRET = 'Pass "q\\uokka" Nine';

describe("scrubbing a purged text", () => {
  it("rewrites it in every table and column, in any case and JSON-escaped, but not in cairn's own values", () => {
    const db = new BetterSqlite3(":memory:");
    db.exec("CREATE TABLE notes (body TEXT, data TEXT, kind TEXT, n INTEGER)");
    db.prepare("INSERT INTO notes VALUES (?, ?, ?, 1)").run(
      `said ${SECRET.toUpperCase()} twice: ${SECRET}`,
      JSON.stringify({ facts: [`uses ${SECRET}`] }),
      SECRET,
    );
    db.prepare("INSERT INTO notes VALUES ('nothing here', '{}', 'fact', 2)").run();

    expect(scrubText(db, SECRET, new Set())).toBe(2);
    const [row, other] = db.prepare("SELECT * FROM notes ORDER BY n").all() as Array<Record<string, string>>;
    expect(row!.body).toBe(`said ${PURGED_MARK} twice: ${PURGED_MARK}`);
    expect(JSON.parse(row!.data!)).toEqual({ facts: [`uses ${PURGED_MARK}`] });
    expect(row!.kind).toBe(SECRET);
    expect(other).toMatchObject({ body: "nothing here", data: "{}" });
    db.close();
  });

  it("rewrites files under the memories root and removes the ones named after it, version folders included", () => {
    const root = tempDir("cairn-scrub-files-");
    const version = join(root, "projects", ".versions", "shop-1a2b3c4d", "v1");
    mkdirSync(join(version, "skills", "use-quokka9"), { recursive: true });
    writeFileSync(join(version, "MEMORY.md"), `# Memory\n- the token is quokka9\n`);
    writeFileSync(join(version, "skills", "use-quokka9", "SKILL.md"), "steps");
    writeFileSync(join(root, "projects.json"), JSON.stringify({ note: "no token" }));

    const scrub = scrubWorkspaceText(root, "Quokka9", PURGED_MARK);
    expect(readFileSync(join(version, "MEMORY.md"), "utf8")).toBe(`# Memory\n- the token is ${PURGED_MARK}\n`);
    expect(existsSync(join(version, "skills", "use-quokka9"))).toBe(false);
    expect(scrub.workspaces).toEqual([join(root, "projects", "shop-1a2b3c4d")]);
    expect(scrub.files).toHaveLength(2);
  });
});
