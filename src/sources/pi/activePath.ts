import type { ParseProblem } from "../types.js";
import type { PiEntry } from "./entryItems.js";

export interface ActivePath {
  /** Entries on the branch from the last appended entry back to the root. */
  onPath: Set<PiEntry>;
  problems: ParseProblem[];
}

/**
 * pi's current branch is the path from the last appended entry to the root through `parentId` (branching
 * appends children to older entries, it never rewrites). Entries without an id cannot be placed in the tree
 * and are kept as if on the path. A parent that is missing (its line was malformed or cut) is reported, and
 * the walk continues from the entry written just before, which is the most likely parent, rather than
 * dropping the rest of the conversation.
 */
export function activePath(entries: PiEntry[], file: string): ActivePath {
  const problems: ParseProblem[] = [];
  const onPath = new Set<PiEntry>(entries.filter((entry) => entry.id === undefined));
  const withId = entries.filter((entry) => entry.id !== undefined);
  const position = new Map<string, number>();
  withId.forEach((entry, index) => {
    if (entry.id !== undefined) position.set(entry.id, index);
  });
  let index: number | undefined = withId.length - 1;
  while (index !== undefined && index >= 0) {
    const entry: PiEntry | undefined = withId[index];
    if (entry === undefined || onPath.has(entry)) break;
    onPath.add(entry);
    index = parentIndex(entry, index, position, (reason) => problems.push({ file, line: entry.line, reason }));
  }
  return { onPath, problems };
}

function parentIndex(
  entry: PiEntry,
  index: number,
  position: Map<string, number>,
  report: (reason: string) => void,
): number | undefined {
  const parentId = entry.parentId;
  if (parentId === null || parentId === undefined) return undefined;
  const parent = position.get(parentId);
  // A parent is always written before its child; anything else is a corrupt link.
  if (parent !== undefined && parent < index) return parent;
  report(`parent entry ${parentId} not found before this entry; continuing from the previous entry`);
  return index - 1;
}
