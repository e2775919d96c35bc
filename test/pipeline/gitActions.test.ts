import { describe, expect, it } from "vitest";
import type { CommandRun } from "../../src/pipeline/phase1/offline/commands.js";
import { describeGitActions, gitActions } from "../../src/pipeline/phase1/offline/gitActions.js";

const run = (command: string, outcome: CommandRun["outcome"] = "succeeded"): CommandRun => ({
  command,
  callItemId: 1,
  resultItemId: 2,
  outcome,
  errorLine: null,
});

describe("what a session did to its repository's history", () => {
  it("reads commits by message, created tags and pushes from chained command lines that worked", () => {
    const actions = gitActions([
      run('git add . && git commit -m "Add the export command"'),
      run("git commit -am 'Fix the flaky test'"),
      run('git commit -m "Never landed"', "failed"),
      run("git tag -a v1.3.0 -m 'release 1.3.0'"),
      run("git tag -d v1.2.9"),
      run("git tag --list"),
      run("git -C packages/core push origin main"),
    ]);
    expect(actions).toEqual({
      commits: ["Add the export command", "Fix the flaky test"],
      tags: ["v1.3.0"],
      pushed: true,
    });
    expect(describeGitActions(actions)).toBe(
      'committed "Add the export command" and "Fix the flaky test", tagged v1.3.0 and pushed',
    );
  });

  it("says nothing when the session left its history alone", () => {
    const actions = gitActions([run("git status"), run("git log --oneline -5"), run("git push", "failed")]);
    expect(describeGitActions(actions)).toBe("");
  });
});
