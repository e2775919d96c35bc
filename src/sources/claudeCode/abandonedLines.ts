import { type ClaudeLine, parentRef } from "./claudeLine.js";
import { startsBranch } from "./startsBranch.js";

/**
 * Line numbers on branches the user left (edits, rewinds, regenerations). The active conversation is
 * the path from the latest leaf back through parentUuid (logicalParentUuid across a compaction); a
 * child of that path which is not on it and starts a new step (see startsBranch) is a left branch,
 * and so is everything below it. Lines the path cannot reach at all (a cut chain, an earlier root)
 * are kept: dropping them would lose conversation, keeping them only risks a little noise.
 */
export function abandonedLines(lines: readonly ClaudeLine[]): Set<number> {
  const abandoned = new Set<number>();
  const nodes = lines.filter((line): line is ClaudeLine & { uuid: string } => line.uuid !== undefined);
  const leaf = findLast(nodes, (line) => line.type !== "progress");
  if (leaf === undefined) return abandoned;
  // Most transcripts never branch: each line hangs on the one before, up to the leaf, so every line
  // is on the active path and none is left behind (and no maps need building to find that out).
  if (nodes[nodes.length - 1] === leaf && isChain(nodes)) return abandoned;
  const { path, messageIds } = activePath(nodes, leaf);
  const children = childrenByParent(nodes);
  const pending = [...path];
  const visited = new Set<string>(pending);
  while (pending.length > 0) {
    const uuid = pending.pop() as string;
    for (const child of children.get(uuid) ?? []) {
      if (visited.has(child.uuid)) continue;
      visited.add(child.uuid);
      if (startsBranch(child, messageIds)) markSubtree(child, children, abandoned, visited);
      else pending.push(child.uuid);
    }
  }
  return abandoned;
}

type Node = ClaudeLine & { uuid: string };

function activePath(nodes: readonly Node[], leaf: Node): { path: Set<string>; messageIds: Set<string> } {
  const byUuid = new Map(nodes.map((node) => [node.uuid, node]));
  const path = new Set<string>();
  const messageIds = new Set<string>();
  for (let node: Node | undefined = leaf; node !== undefined && !path.has(node.uuid); ) {
    path.add(node.uuid);
    if (node.type === "assistant" && node.messageId !== undefined) messageIds.add(node.messageId);
    const parent = parentRef(node);
    node = parent === undefined ? undefined : byUuid.get(parent);
  }
  return { path, messageIds };
}

function childrenByParent(nodes: readonly Node[]): Map<string, Node[]> {
  const children = new Map<string, Node[]>();
  for (const node of nodes) {
    const parent = parentRef(node);
    if (parent === undefined) continue;
    const list = children.get(parent);
    if (list) list.push(node);
    else children.set(parent, [node]);
  }
  return children;
}

function markSubtree(root: Node, children: Map<string, Node[]>, abandoned: Set<number>, visited: Set<string>): void {
  const pending = [root];
  while (pending.length > 0) {
    const node = pending.pop() as Node;
    abandoned.add(node.line);
    for (const child of children.get(node.uuid) ?? []) {
      if (visited.has(child.uuid)) continue;
      visited.add(child.uuid);
      pending.push(child);
    }
  }
}

function isChain(nodes: readonly Node[]): boolean {
  for (let index = 1; index < nodes.length; index += 1)
    if (parentRef(nodes[index]!) !== nodes[index - 1]!.uuid) return false;
  return true;
}

function findLast<T>(items: readonly T[], test: (item: T) => boolean): T | undefined {
  for (let index = items.length - 1; index >= 0; index -= 1) {
    const item = items[index];
    if (item !== undefined && test(item)) return item;
  }
  return undefined;
}
