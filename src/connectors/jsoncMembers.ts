import { createScanner, type Edit, findNodeAtLocation, type JSONPath, type Node, parseTree } from "jsonc-parser";

/** jsonc-parser's token kinds used here (its `SyntaxKind` is a const enum, absent at run time). */
const COMMA = 5;
const LINE_COMMENT = 12;
const BLOCK_COMMENT = 13;
const LINE_BREAK = 14;
const SPACES = 15;

/** Edits that add or remove one member, and where the text they inserted lies once applied (to lay it out). */
export interface MemberEdit {
  edits: Edit[];
  inserted?: { offset: number; length: number };
}

/** A member to append: to the object or list at `path`, a property named `name`, or a list item without. */
export interface NewMember {
  path: JSONPath;
  name?: string;
  value: unknown;
}

/**
 * Appends a member to its object or list. It goes on a line of its own after the last member's comma
 * and comment, so a comment stays on the line it was written on; a trailing comma after the last member
 * is kept by giving the new one a trailing comma too.
 */
export function memberAppend(text: string, { path, name, value }: NewMember): MemberEdit {
  const container = nodeAt(text, path);
  if (!container) throw new Error(`no object or list at ${path.join(".")}`);
  const member = name === undefined ? JSON.stringify(value) : `${JSON.stringify(name)}: ${JSON.stringify(value)}`;
  const last = container.children?.at(-1);
  if (!last)
    return {
      edits: [{ offset: container.offset + 1, length: 0, content: member }],
      inserted: at(container.offset + 1, member),
    };
  const tail = tailOf(text, last);
  // A line break first: the last member's line may end in a `//` comment.
  const content = `${text.includes("\r\n") ? "\r\n" : "\n"}${member}${tail.comma === undefined ? "" : ","}`;
  const edits = [{ offset: tail.end, length: 0, content }];
  if (tail.comma === undefined) edits.unshift({ offset: last.offset + last.length, length: 0, content: "," });
  return { edits, inserted: at(tail.end + (tail.comma === undefined ? 1 : 0), content) };
}

/**
 * Removes the member at `path` (a list index, or a property name) with its comma and the comment on
 * its line, from the end of the line of the member before it: the other members keep their comments
 * (jsonc-parser's own removal of a last list item cuts up to the closing bracket, comment included,
 * and of a first property every comment before it). The comma before a last member goes too when it
 * had none after it, so no trailing comma appears where the user wrote none.
 */
export function memberRemoval(text: string, path: JSONPath): MemberEdit | undefined {
  const container = nodeAt(text, path.slice(0, -1));
  const members = container?.children ?? [];
  const name = path.at(-1);
  const index = typeof name === "number" ? name : members.findIndex((member) => member.children?.[0]?.value === name);
  const member = members[index];
  if (!container || !member) return undefined;
  const previous = members[index - 1];
  const before = previous ? tailOf(text, previous) : undefined;
  const start = before ? before.end : container.offset + 1;
  const own = tailOf(text, member);
  const edits = [{ offset: start, length: own.end - start, content: "" }];
  const lastWithoutComma = index === members.length - 1 && own.comma === undefined;
  if (lastWithoutComma && before?.comma !== undefined && before.comma < start) {
    edits.unshift({ offset: before.comma, length: 1, content: "" });
  }
  return { edits };
}

function nodeAt(text: string, path: JSONPath): Node | undefined {
  const root = parseTree(text, [], { allowTrailingComma: true });
  return root && findNodeAtLocation(root, path);
}

/**
 * What follows a member: where its comma is (past comments and line breaks), and where its line ends
 * for cairn, after that comma and a comment on the same line, which belong with the member.
 */
function tailOf(text: string, node: Node): { end: number; comma?: number } {
  const scanner = createScanner(text, false);
  scanner.setPosition(node.offset + node.length);
  let end = node.offset + node.length;
  let comma: number | undefined;
  let sameLine = true;
  for (;;) {
    const token: number = scanner.scan();
    if (token === LINE_BREAK) sameLine = false;
    if (token === LINE_BREAK || token === SPACES) continue;
    // Anything but a comma or a comment is the next member, the closing bracket or the end.
    if (token !== COMMA && token !== LINE_COMMENT && token !== BLOCK_COMMENT) break;
    if (token === COMMA) {
      if (comma !== undefined) break;
      comma = scanner.getTokenOffset();
    }
    if (sameLine) end = scanner.getTokenOffset() + scanner.getTokenLength();
  }
  return comma === undefined ? { end } : { end, comma };
}

function at(offset: number, content: string): { offset: number; length: number } {
  return { offset, length: content.length };
}
