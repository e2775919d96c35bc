import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { doctor } from "../../src/cli/commands/doctor.js";
import { projectIdentity } from "../../src/project/projectKey.js";
import { projectWorkspace } from "../../src/workspace/workspacePaths.js";
import { type TempHome, tempHome, writeSummary } from "../server/tempHome.js";

let temp: TempHome;
let cairn: Cairn | undefined;
beforeEach(() => {
  temp = tempHome({ "memories.enabled": true });
});
afterEach(() => {
  cairn?.close();
  temp.cleanup();
});

describe("cairn doctor and summary sizes", () => {
  it("warns about a summary Claude Code cannot take whole: which file, its size, the cap, what to do", async () => {
    const long = Array.from({ length: 400 }, (_, i) => `- note ${i}: keep the build green before merging.`).join("\n");
    writeSummary(temp.home, { cwd: temp.project }, long);
    writeSummary(temp.home, "global", "- Prefer small commits.");
    cairn = new Cairn({ home: temp.home, env: temp.env });
    const report = await doctor(cairn);
    const memories = join(temp.home, "memories");
    const file = join(projectWorkspace(memories, projectIdentity(temp.project).key).dir, "memory_summary.md");
    expect(report.summarySizes).toHaveLength(1);
    const [warning] = report.summarySizes;
    expect(warning).toMatchObject({ file, chars: long.length, agent: "claude-code", cap: 10_000 });
    expect(warning?.keptChars).toBeLessThan(long.length);
    expect(warning?.message).toContain(file);
    expect(warning?.message).toContain(`${long.length} characters`);
    expect(warning?.message).toContain("10000 characters");
    expect(warning?.message).toContain("cairn config set memories.summaryInjectionTokenLimit");
  });

  it("says nothing when every summary fits", async () => {
    writeSummary(temp.home, { cwd: temp.project }, "- Run the linter.");
    cairn = new Cairn({ home: temp.home, env: temp.env });
    expect((await doctor(cairn)).summarySizes).toEqual([]);
  });
});
