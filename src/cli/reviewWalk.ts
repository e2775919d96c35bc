import type { ReviewEntry, ReviewSide } from "../memory/reviewQueue.js";
import type { ReviewAction } from "../requests/reviewActions.js";
import { CairnError } from "../util/errors.js";

/** How a flag reads in a terminal: the flag, the flagged memory, then the other side or the proposed fact. */
export function reviewLines(entry: ReviewEntry): string[] {
  return [
    `flag #${entry.flag} (${entry.detector}, ${minute(entry.createdAt)}): ${entry.reason}`,
    `  flagged  ${describe(entry.memory)}`,
    ...(entry.related ? [`  ${(entry.relatedIs ?? "newer").padEnd(8)} ${describe(entry.related)}`] : []),
    ...(entry.proposedContent === null ? [] : [`  proposed ${entry.proposedContent}`]),
  ];
}

function describe(side: ReviewSide | null): string {
  if (!side) return "(the memory no longer exists)";
  const state = side.state === "live" ? "" : `, ${side.state}`;
  return `#${side.id} (${minute(side.createdAt)}, ${side.type}${state}): ${side.content}`;
}

function minute(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 16).replace("T", " ");
}

export interface ReviewWalk {
  entries: ReviewEntry[];
  /** Applies a decision; returns the line that says what changed. */
  decide: (flag: number, action: ReviewAction) => Promise<string>;
  /** One answer from the person; undefined when the input ended. */
  ask: (question: string) => Promise<string | undefined>;
  print: (line: string) => void;
}

const KEYS: Record<string, ReviewAction | "skip" | "quit"> = {
  k: "keep",
  s: "supersede",
  f: "forget",
  n: "skip",
  q: "quit",
};

/**
 * One flag at a time: k keep, s supersede, f forget, n (or Enter) skip, q quit. Ends at the last flag,
 * on q, or when the input ends; a flag that cannot be decided that way says why and the walk goes on.
 */
export async function walkReviews(walk: ReviewWalk): Promise<{ decided: number; skipped: number }> {
  let decided = 0;
  let skipped = 0;
  for (const [index, entry] of walk.entries.entries()) {
    walk.print(`(${index + 1}/${walk.entries.length})`);
    for (const line of reviewLines(entry)) walk.print(line);
    let choice: ReviewAction | "skip" | "quit" | undefined;
    while (choice === undefined) {
      const answer = await walk.ask("[k]eep, [s]upersede, [f]orget, [n] skip, [q]uit? ");
      if (answer === undefined) return { decided, skipped: skipped + walk.entries.length - index };
      const key = answer.trim().toLowerCase().slice(0, 1);
      choice = key === "" ? "skip" : KEYS[key];
    }
    if (choice === "quit") return { decided, skipped: skipped + walk.entries.length - index };
    if (choice === "skip") {
      skipped += 1;
      continue;
    }
    try {
      walk.print(await walk.decide(entry.flag, choice));
      decided += 1;
    } catch (error) {
      if (!CairnError.isInstance(error)) throw error;
      walk.print(`not changed: ${error.message}`);
      skipped += 1;
    }
    walk.print("");
  }
  return { decided, skipped };
}
