import { describe, expect, it } from "vitest";
import { openDatabase } from "../../src/store/connection.js";
import { guardResumeState, SourceFilesRepository } from "../../src/store/repositories/sourceFilesRepository.js";

const TOKEN = `ghp_${"a1B2c3D4e5".repeat(3)}123456`;

function stateOf(resumeState: unknown) {
  return {
    path: "/t/a.jsonl",
    agent: "claude-code" as const,
    size: 10,
    mtimeMs: 1,
    resume: { offset: 10, line: 2, state: resumeState },
    tailHash: "h",
    sessionIds: ["s"],
    problems: 0,
    scannedAt: 2,
  };
}

describe("SourceFilesRepository resume states", () => {
  const raw = { id: "s", remote: `https://x:${TOKEN}@github.com/o/r`, tools: { [TOKEN]: "Bash" } };

  it("stores a resume state with its secrets redacted, keys and remote credentials included", () => {
    const files = new SourceFilesRepository(openDatabase(":memory:").db);
    files.save(stateOf(raw));
    const stored = JSON.stringify(files.all().get("/t/a.jsonl")?.resume?.state);
    expect(stored).not.toContain(TOKEN);
    expect(stored).toContain("https://github.com/o/r");
  });

  it("stores a state guarded ahead of the write as it is, and the guarded state cannot change", () => {
    const guarded = guardResumeState(raw) as { tools: Record<string, string> };
    expect(JSON.stringify(guarded)).not.toContain(TOKEN);
    expect(guardResumeState(guarded)).toBe(guarded);
    expect(() => {
      guarded.tools.added = TOKEN;
    }).toThrow(TypeError);
    const files = new SourceFilesRepository(openDatabase(":memory:").db);
    files.save(stateOf(guarded));
    expect(files.all().get("/t/a.jsonl")?.resume?.state).toEqual(guarded);
    expect(raw.tools[TOKEN]).toBe("Bash");
  });
});
