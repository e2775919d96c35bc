import { describe, expect, it } from "vitest";
import { openCairn } from "../../src/index.js";
import { pushingCairn } from "../helpers/pushingCairn.js";
import { tempDir } from "../helpers/tempDir.js";

describe("the push API", () => {
  it("stores pushed items raw first, applies the triggers, and extracts the session like a scanned one", async () => {
    const { cairn, push } = pushingCairn(tempDir("cairn-push-"), { id: "agent-42", cwd: "/srv/app" });
    push("user", "Always run the linter with pnpm lint before committing.");
    push("assistant", "Noted.");
    expect(cairn.storage.sessions.get("agent-42")?.invalidatedAt).toBeNull();
    cairn.endSession("agent-42");
    expect(cairn.storage.sessions.get("agent-42")?.invalidatedAt).toBe(cairn.storage.items.maxId("agent-42"));

    const report = await cairn.extract();
    expect(report.jobs.map((job) => [job.sessionId, job.outcome])).toEqual([["agent-42", "succeeded"]]);
    expect(cairn.storage.stage1.get("agent-42")?.rawMemory).toContain(
      "Always run the linter with pnpm lint before committing.",
    );
    const { results } = await cairn.recall({ query: "linter before committing", scope: "all" });
    expect(results[0]?.content).toBe("Always run the linter with pnpm lint before committing.");
    cairn.close();
  });

  it("keeps the facts of a session with no project out of every project's memory", async () => {
    const project = tempDir("cairn-push-project-");
    const { cairn, push } = pushingCairn(tempDir("cairn-push-"), { id: "no-cwd" });
    push("user", "The API listens on port 3000 locally. I always use pnpm in all my projects.");
    push("assistant", "Noted.");
    cairn.endSession("no-cwd");
    await cairn.run();
    const scopes = cairn.storage.memories
      .getLive([1, 2, 3, 4], { scopes: "all" })
      .map((memory) => [memory.scope, memory.content]);
    // Stored global, the API's port of some repository was injected into every project.
    expect(scopes).toContainEqual(["no-project", "The API listens on port 3000 locally."]);
    expect(scopes).toContainEqual(["global", "I always use pnpm in all my projects."]);
    const inProject = await cairn.recall({ query: "API port listens", cwd: project });
    expect(inProject.results.map((r) => r.content)).not.toContain("The API listens on port 3000 locally.");
    expect(cairn.inject(project).text).not.toContain("port 3000");
    const asked = await cairn.recall({ query: "API port listens", scope: "no-project" });
    expect(asked.results[0]?.content).toBe("The API listens on port 3000 locally.");
    cairn.close();
  });

  it("redacts secrets in pushed text and rejects bad input with one clear error", () => {
    const cairn = openCairn({ home: tempDir("cairn-push-"), env: {} });
    cairn.appendHistory("s", { role: "user", text: "token ghp_R8x2Lk9QmZpV4tWn7YbC3dFhJ5sA1eG6uK0o" });
    expect(cairn.storage.items.list("s")[0]?.text).not.toContain("ghp_R8x2");
    expect(() => cairn.appendHistory(" ", { role: "user", text: "x" })).toThrow(
      "appendHistory: sessionId must not be empty",
    );
    expect(cairn.endSession("missing")).toBe(false);
    cairn.close();
  });
});
