import { readFileSync } from "node:fs";
import { z } from "zod";
import { memoryTypes, type RememberInput } from "../memory/types.js";
import { CairnError } from "../util/errors.js";

const lineSchema = z
  .object({
    content: z.string().trim().min(1),
    scope: z.string().min(1).optional(),
    ref: z.string().optional(),
    type: z.enum(memoryTypes).optional(),
  })
  .strict();

export function single(
  text: string | undefined,
  options: { scope?: string; ref?: string; type?: string },
): RememberInput {
  if (!text || text.trim().length === 0)
    throw new CairnError("bad_input", "remember: give the text to store, or --file items.jsonl");
  const parsed = lineSchema.safeParse({ content: text, ...options });
  if (!parsed.success) throw new CairnError("bad_input", `remember: ${describe(parsed.error.issues[0])}`);
  return parsed.data;
}

/** Validates every line before storing anything: a bad line is reported with its number and nothing is stored. */
export function readItems(file: string): RememberInput[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new CairnError(
      "bad_input",
      `remember: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? "error"})`,
    );
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
    const parsed = lineSchema.safeParse(value);
    if (!parsed.success) {
      throw new CairnError(
        "bad_input",
        `remember: ${file}:${index + 1}: ${describe(parsed.error.issues[0])}; nothing was stored`,
      );
    }
    items.push(parsed.data);
  }
  if (items.length === 0) throw new CairnError("bad_input", `remember: ${file} holds no items`);
  return items;
}

function describe(issue: z.core.$ZodIssue | undefined): string {
  if (!issue) return "invalid input";
  const field = issue.path.join(".") || "item";
  if (issue.code === "invalid_value") return `${field} must be one of ${issue.values.join(", ")}`;
  if (issue.code === "unrecognized_keys") return `unknown field ${issue.keys.join(", ")}`;
  return `${field}: ${issue.message}`;
}
