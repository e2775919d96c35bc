import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/runCli.js";
import { tempDir } from "../helpers/tempDir.js";

describe("recall.profile on the command line", () => {
  it("config list shows the profile and the stages it runs; set switches it and rejects unknown names", () => {
    const env = { CAIRN_HOME: tempDir("cairn-profile-") };
    const list = runCli(["config", "list"], { env });
    expect(list.status, list.stderr).toBe(0);
    expect(list.stdout).toContain('recall.profile = "agent"');
    expect(list.stdout).toContain(
      "# recall stages (recall.profile agent): minScore, head, dampening, continuity, recency",
    );

    expect(runCli(["config", "set", "recall.profile", "conversation"], { env }).status).toBe(0);
    expect(runCli(["config", "set", "recall.author.enabled", "false"], { env }).status).toBe(0);
    const after = runCli(["config", "list"], { env });
    expect(after.stdout).toContain(
      "# recall stages (recall.profile conversation): timeAnswer, context, minScore, head, listLength, dampening, recency",
    );

    const bad = runCli(["config", "set", "recall.profile", "chat"], { env });
    expect(bad.status).toBe(1);
    expect(bad.stderr.trim().split("\n")).toHaveLength(1);
    expect(bad.stderr).toMatch(/recall\.profile.*agent.*conversation/);
  }, 180_000);
});
