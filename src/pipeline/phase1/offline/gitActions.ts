import type { CommandRun } from "./commands.js";

/** What a session did to its repository's history: commits (by message), tags and pushes that worked. */
export interface GitActions {
  commits: string[];
  tags: string[];
  pushed: boolean;
}

/**
 * The git commits, tags and pushes a session's commands made, in order, from the runs that worked. The
 * next session starts from that state: work committed but not pushed, a tag made before a release step
 * failed. A chained command line (`git add . && git commit -m "..."`) is read part by part.
 */
export function gitActions(runs: readonly CommandRun[]): GitActions {
  const actions: GitActions = { commits: [], tags: [], pushed: false };
  for (const run of runs) {
    if (run.outcome !== "succeeded") continue;
    for (const part of run.command.split(/\s*(?:&&|;|\|\|)\s*/)) {
      const git = /^git\s+(?:-C\s+\S+\s+)?(commit|tag|push)\b(.*)$/.exec(part.trim());
      if (!git) continue;
      const [, verb, rest = ""] = git;
      if (verb === "commit") {
        // `-m "..."`, combined short flags (`-am "..."`) or `--message=...`.
        const message = /(?:^|\s)(?:-[a-zA-Z]*m|--message)(?:\s+|=)(?:"([^"]+)"|'([^']+)'|(\S+))/.exec(rest);
        const text = message?.[1] ?? message?.[2] ?? message?.[3];
        if (text) pushOnce(actions.commits, text.split("\n")[0]!.slice(0, 100));
      } else if (verb === "tag") {
        // `git tag` alone lists tags, and `-d` deletes one: only a created tag changes the state.
        if (/\s-(?:d|l)\b|--(?:delete|list)\b/.test(rest)) continue;
        const name = rest
          .replace(/\s-(?:m|F)\s+(?:"[^"]*"|'[^']*'|\S+)/g, " ")
          .split(/\s+/)
          .find((word) => word !== "" && !word.startsWith("-"));
        if (name) pushOnce(actions.tags, name.slice(0, 60));
      } else actions.pushed = true;
    }
  }
  return actions;
}

/** The actions in words ("it committed "Release 1.2", tagged v1.2 and pushed"), or "" when there were none. */
export function describeGitActions(actions: GitActions): string {
  const done = [
    actions.commits.length > 0
      ? `committed ${actions.commits
          .slice(-2)
          .map((message) => `"${message}"`)
          .join(" and ")}`
      : "",
    actions.tags.length > 0 ? `tagged ${actions.tags.slice(-3).join(", ")}` : "",
    actions.pushed ? "pushed" : "",
  ].filter(Boolean);
  if (done.length === 0) return "";
  return done.length === 1 ? done[0]! : `${done.slice(0, -1).join(", ")} and ${done.at(-1)}`;
}

function pushOnce(list: string[], value: string): void {
  if (!list.includes(value)) list.push(value);
}
