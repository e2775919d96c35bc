import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { demoConfig, demoSources } from "../../src/cli/demo.js";
import { tempDir } from "../helpers/tempDir.js";

/**
 * The offline extractor and consolidator on the bundled example sessions, compared with golden files
 * that a person has read (test/fixtures/golden/). After an intended change, regenerate them with
 * UPDATE_GOLDEN=1 npx vitest run test/pipeline/offlineGolden.test.ts and read the diff.
 */
const GOLDEN = join(import.meta.dirname, "..", "fixtures", "golden", "demo");
const NOW = Date.parse("2026-11-01T12:00:00.000Z");

function files(root: string): string[] {
  const out: string[] = [];
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith(".") || entry.name === "projects.json") continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory() || entry.isSymbolicLink()) visit(path);
      else out.push(relative(root, path));
    }
  };
  visit(root);
  return out.sort();
}

describe("offline pipeline golden files", () => {
  it("writes the reviewed MEMORY.md, memory_summary.md, skills and summaries for the example sessions", async () => {
    const cairn = new Cairn({
      home: tempDir("cairn-golden-"),
      config: demoConfig,
      env: {},
      clock: () => NOW,
      importLanes: false,
    });
    await cairn.run({ scan: { overrides: demoSources(), only: ["codex", "claude-code", "pi"] } });
    const produced = files(cairn.paths.memories);
    if (process.env.UPDATE_GOLDEN) {
      for (const file of produced) {
        mkdirSync(join(GOLDEN, file, ".."), { recursive: true });
        writeFileSync(join(GOLDEN, file), readFileSync(join(cairn.paths.memories, file)));
      }
    }
    expect(existsSync(GOLDEN), "golden files missing: run with UPDATE_GOLDEN=1").toBe(true);
    expect(produced).toEqual(files(GOLDEN));
    for (const file of produced) {
      expect(readFileSync(join(cairn.paths.memories, file), "utf8"), file).toBe(
        readFileSync(join(GOLDEN, file), "utf8"),
      );
    }
    cairn.close();
  });
});
