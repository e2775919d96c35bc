import { z } from "zod";
import { modelJsonSchema } from "../../providers/llm/modelJsonSchema.js";
import { readModelJson } from "../../providers/llm/readModelJson.js";

/** Longer than this is not a question but a paragraph; such answers are dropped, not cut. */
const MAX_HINT_CHARS = 300;

/** The hints answer as the model is asked to give it; the request's JSON Schema is generated from it. */
export const hintsAnswerSchema = z.object({ questions: z.array(z.string()) });

/** The JSON Schema sent to providers with a structured-output mode. */
export const hintsJsonSchema = modelJsonSchema(hintsAnswerSchema);

/** What the reader accepts: the same object with any items (bad ones are dropped one by one), or the bare list. */
const lenientAnswerSchema = z.union([
  hintsAnswerSchema.extend({ questions: z.array(z.unknown()) }).loose(),
  // Some models answer with the bare list.
  z.array(z.unknown()),
]);
const questionSchema = hintsAnswerSchema.shape.questions.element;

/**
 * Validates a hints answer: a list of non-empty question strings, whitespace collapsed, duplicates
 * (case-insensitive) and over-long entries dropped, at most `max`. Returns the problem instead of
 * throwing, so the worker can record it and retry.
 */
export function parseHints(text: string, max: number): { hints: string[] } | { problem: string } {
  const json = readModelJson(text);
  if ("problem" in json) return json;
  const parsed = lenientAnswerSchema.safeParse(json.value);
  if (!parsed.success) return { problem: 'the answer has no "questions" list' };
  const items = Array.isArray(parsed.data) ? parsed.data : parsed.data.questions;
  const seen = new Set<string>();
  const hints: string[] = [];
  for (const item of items) {
    const question = questionSchema.safeParse(item);
    if (!question.success) continue;
    const hint = question.data.trim().replace(/\s+/g, " ");
    const key = hint.toLowerCase();
    if (hint.length === 0 || hint.length > MAX_HINT_CHARS || seen.has(key)) continue;
    seen.add(key);
    hints.push(hint);
    if (hints.length >= max) break;
  }
  if (hints.length === 0) return { problem: "the answer lists no usable question" };
  return { hints };
}
