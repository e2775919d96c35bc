import {
  applyEdits,
  type FormattingOptions,
  format,
  type JSONPath,
  modify,
  type ParseError,
  parse,
  printParseErrorCode,
} from "jsonc-parser";
import { CairnError } from "../util/errors.js";
import { type MemberEdit, memberAppend, memberRemoval } from "./jsoncMembers.js";
import { indentOf, isJsonObject, type JsonObject, jsonEqual, stringifyLike } from "./jsonDocument.js";

/** Comments (jsonc-parser allows them by default) and trailing commas, as the agents write them. */
const PARSE_OPTIONS = { allowTrailingComma: true };

/**
 * An agent's settings file written as JSON or JSONC (comments, trailing commas: Gemini CLI and OpenCode
 * read both), as an object; an absent or blank file is `{}`. `rerun` is the command to repeat once fixed.
 */
export function parseJsoncObject(text: string | null, file: string, rerun: string): JsonObject {
  if (text === null || text.trim() === "") return {};
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, PARSE_OPTIONS);
  const first = errors[0];
  if (first) {
    const { line, column } = lineAndColumn(text, first.offset);
    throw new CairnError(
      "connector_config_invalid",
      `${file} is not valid JSON, even with comments allowed (${printParseErrorCode(first.error)} at line ${line}, column ${column}), so cairn changed nothing; fix it and run '${rerun}' again`,
    );
  }
  if (!isJsonObject(value)) {
    throw new CairnError(
      "connector_config_invalid",
      `${file} does not hold a JSON object, so cairn changed nothing; fix it and run '${rerun}' again`,
    );
  }
  return value;
}

/**
 * `text` changed so that it holds `value`, editing in place only the members that differ from what it
 * holds now: comments, trailing commas, order and layout of everything else stay byte for byte, and
 * what cairn inserts is laid out in the file's own indentation and line ends. A new or blank file is
 * written whole, as `stringifyLike` does.
 */
export function editJsoncLike(text: string | null, value: JsonObject): string {
  if (text === null || text.trim() === "") return stringifyLike(text, value);
  const formatting = formattingOf(text);
  let edited = text;
  for (const change of changesBetween(parse(text, [], PARSE_OPTIONS), value, [])) {
    const step = stepFor(edited, change);
    if (!step) continue;
    edited = applyEdits(edited, step.edits);
    if (!step.inserted) continue;
    // From the character before, so the break after an opening brace is laid out too.
    const from = Math.max(0, step.inserted.offset - 1);
    const range = { offset: from, length: step.inserted.offset + step.inserted.length - from };
    edited = applyEdits(edited, format(edited, range, formatting));
  }
  return edited;
}

function stepFor(text: string, change: Change): MemberEdit | undefined {
  if (change.kind === "remove") return memberRemoval(text, change.path);
  if (change.kind === "append") {
    const name = change.path.at(-1);
    const path = change.path.slice(0, -1);
    return memberAppend(
      text,
      typeof name === "string" ? { path, name, value: change.value } : { path, value: change.value },
    );
  }
  // Unformatted: `modify` would otherwise lay out again the whole lines around the edit, the user's too.
  const edits = modify(text, change.path, change.value, {});
  const edit = edits[0];
  return edit && { edits, inserted: { offset: edit.offset, length: edit.content.length } };
}

/** One edit: a member added at the end of its object or list, taken out, or given a new value. */
interface Change {
  kind: "append" | "remove" | "set";
  path: JSONPath;
  value?: unknown;
}

/**
 * The smallest changes, in the order to apply them, that turn `before` into `after`: members removed,
 * added or changed one by one, list items appended or removed (later ones first, so earlier positions
 * hold), and a value replaced whole only when it is no object, or a list changed otherwise.
 */
function changesBetween(before: unknown, after: unknown, path: JSONPath): Change[] {
  if (jsonEqual(before, after)) return [];
  if (isJsonObject(before) && isJsonObject(after)) {
    const removed = Object.keys(before)
      .filter((key) => !(key in after))
      .map((key): Change => ({ kind: "remove", path: [...path, key] }));
    const kept = Object.entries(after).flatMap(([key, item]): Change[] =>
      key in before
        ? changesBetween(before[key], item, [...path, key])
        : [{ kind: "append", path: [...path, key], value: item }],
    );
    return [...removed, ...kept];
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const changes = listChanges(before, after, path);
    if (changes) return changes;
  }
  return [{ kind: "set", path, value: after }];
}

function listChanges(before: unknown[], after: unknown[], path: JSONPath): Change[] | undefined {
  if (before.length === after.length) return before.flatMap((item, i) => changesBetween(item, after[i], [...path, i]));
  if (after.length > before.length && before.every((item, i) => jsonEqual(item, after[i]))) {
    return after
      .slice(before.length)
      .map((item, i): Change => ({ kind: "append", path: [...path, before.length + i], value: item }));
  }
  const dropped = droppedIndexes(before, after);
  return dropped?.reverse().map((index): Change => ({ kind: "remove", path: [...path, index] }));
}

/** The positions of `before` that `after` lacks, when `after` is `before` with some items taken out. */
function droppedIndexes(before: unknown[], after: unknown[]): number[] | undefined {
  const dropped: number[] = [];
  let next = 0;
  before.forEach((item, index) => {
    if (next < after.length && jsonEqual(item, after[next])) next += 1;
    else dropped.push(index);
  });
  return next === after.length ? dropped : undefined;
}

/** The indentation the file already uses, for what cairn inserts (jsonc-parser takes its line ends from the file). */
function formattingOf(text: string): FormattingOptions {
  const indent = indentOf(text);
  const tabs = indent.startsWith("\t");
  return { insertSpaces: !tabs, tabSize: tabs ? 1 : indent.length };
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split("\n");
  return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
}
