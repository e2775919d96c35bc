import { readFileSync } from "node:fs";
import type { RememberInput } from "../memory/types.js";
import { parseRequest } from "../requests/parseRequest.js";
import { futureProblem, rememberItem } from "../requests/remember.js";
import { CairnError } from "../util/errors.js";
import { unreadableFile } from "./unreadableFile.js";

/** The fields `cairn remember` takes as flags: for one text, or the defaults of every line of `--file`. */
export interface RememberFlags {
  scope?: string | undefined;
  ref?: string | undefined;
  type?: string | undefined;
  searchTerms?: string[] | undefined;
  transcript?: string | undefined;
  sessionKey?: string | undefined;
}

/** The flags given, without those left out. */
function given(flags: RememberFlags): Record<string, unknown> {
  return Object.fromEntries(Object.entries(flags).filter(([, value]) => value !== undefined));
}

export function single(text: string | undefined, flags: RememberFlags): RememberInput {
  if (!text || text.trim().length === 0)
    throw new CairnError("bad_input", "remember: give the text to store, or --file items.jsonl");
  return parseRequest(rememberItem(), { content: text, ...given(flags) });
}

/** The text of `--transcript-file`; its size is checked with the rest of the request. */
export function readTranscript(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    throw new CairnError("bad_input", `remember: cannot read the transcript ${file} (${unreadableFile(error).reason})`);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Validates every line before storing anything: a bad line is reported with its number and nothing is
 * stored. The flags are every line's defaults (as an HTTP batch's shared fields): a line's own field wins.
 */
export function readItems(file: string, now: number, flags: RememberFlags = {}): RememberInput[] {
  const defaults = given(flags);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new CairnError("bad_input", `remember: cannot read ${file} (${unreadableFile(error).reason})`);
  }
  const items: RememberInput[] = [];
  for (const [index, line] of text.split("\n").entries()) {
    if (line.trim().length === 0) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new CairnError("bad_input", `remember: ${file}:${index + 1} is not valid JSON; nothing was stored`);
    }
    const parsed = rememberItem().safeParse(isRecord(value) ? { ...defaults, ...value } : value);
    if (!parsed.success) {
      throw new CairnError(
        "bad_input",
        `remember: ${file}:${index + 1}: ${parsed.error.issues[0]?.message ?? "not a memory"}; nothing was stored`,
      );
    }
    const future = futureProblem(parsed.data.occurredAt, now);
    if (future) throw new CairnError("bad_input", `remember: ${file}:${index + 1}: ${future}; nothing was stored`);
    items.push(parsed.data);
  }
  if (items.length === 0) throw new CairnError("bad_input", `remember: ${file} holds no items`);
  // Kept in file order, so outcomes line up with lines: the revise job orders by occurredAt itself.
  return items;
}
