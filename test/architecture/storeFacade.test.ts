import { readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { describe, expect, it } from "vitest";
import { sourceFiles } from "../helpers/sourceFiles.js";

const SRC = join(import.meta.dirname, "..", "..", "src");

/** Building a repository, the queue, the budget or the vector index from a connection: only Storage does that. */
const BUILDS_A_REPOSITORY = /\bnew\s+(\w+Repository|TokenBudget|VectorIndex|JobQueue)\s*\(|\beraseScopes\s*\(/g;

describe("the one Storage facade", () => {
  it("is the only place outside src/store/ that gets a repository: nothing else builds one from a bare connection", () => {
    const found = sourceFiles(SRC)
      .map((file) => relative(SRC, file))
      .filter((file) => !file.startsWith(`store${sep}`))
      .flatMap((file) =>
        [...readFileSync(join(SRC, file), "utf8").matchAll(BUILDS_A_REPOSITORY)].map((m) => `${file}: ${m[0]}`),
      );
    expect(found).toEqual([]);
  });

  it("keeps SQL behind the repositories: no query or pragma on the store's connection outside src/store/ (an adapter reading an agent's own database is a source, not the store)", () => {
    const found = sourceFiles(SRC)
      .map((file) => relative(SRC, file))
      .filter((file) => !file.startsWith(`store${sep}`))
      .flatMap((file) =>
        [...readFileSync(join(SRC, file), "utf8").matchAll(/\.db\.(prepare|pragma|exec)\(/g)].map(
          (m) => `${file}: ${m[0]}`,
        ),
      );
    expect(found).toEqual([]);
  });

  it("leaves recall out of the memory service: MemoryStore imports nothing from src/recall", () => {
    const text = readFileSync(join(SRC, "memory", "memoryStore.ts"), "utf8");
    expect(text).not.toMatch(/from\s+["']\.\.\/recall\//);
  });
});
