import { z } from "zod";
import { modelJsonSchema } from "../../providers/llm/modelJsonSchema.js";
import { readModelJson } from "../../providers/llm/readModelJson.js";

/** Longer than this is not a question but a paragraph; such answers are dropped, not cut. */
const MAX_HINT_CHARS = 300;

/**
 * The hints answer as the model is asked to give it: the questions of each memory of the batch, under
 * the number the prompt gave it. The request's JSON Schema is generated from it.
 */
export const hintsAnswerSchema = z.object({
  memories: z.array(z.object({ id: z.int(), questions: z.array(z.string()) })),
});

/** The JSON Schema sent to providers with a structured-output mode. */
export const hintsJsonSchema = modelJsonSchema(hintsAnswerSchema);

/** What the reader accepts of a batch answer: the object with any entries (bad ones are dropped one by one). */
const lenientBatchSchema = hintsAnswerSchema.extend({ memories: z.array(z.unknown()) }).loose();
const lenientEntrySchema = hintsAnswerSchema.shape.memories.element.extend({ questions: z.array(z.unknown()) });
/** One memory's answer as some models give it when asked about a single memory: the object or the bare list. */
const lenientSingleSchema = z.union([z.object({ questions: z.array(z.unknown()) }).loose(), z.array(z.unknown())]);
const questionSchema = z.string();

/**
 * Validates one memory's questions: non-empty strings, whitespace collapsed, duplicates
 * (case-insensitive) and over-long entries dropped, at most `max`.
 */
function cleanQuestions(items: readonly unknown[], max: number): string[] {
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
  return hints;
}

/**
 * Reads a single memory's answer, `{"questions": [...]}` or the bare list. Returns the problem
 * instead of throwing, so the worker can record it and retry.
 */
export function parseHints(text: string, max: number): { hints: string[] } | { problem: string } {
  const json = readModelJson(text);
  if ("problem" in json) return json;
  const parsed = lenientSingleSchema.safeParse(json.value);
  if (!parsed.success) return { problem: 'the answer has no "questions" list' };
  const hints = cleanQuestions(Array.isArray(parsed.data) ? parsed.data : parsed.data.questions, max);
  if (hints.length === 0) return { problem: "the answer lists no usable question" };
  return { hints };
}

/**
 * Reads a batch answer: the usable questions of each memory by the number (1..`count`) the prompt gave
 * it. Entries with an unknown number, a malformed shape or no usable question are left out, so the
 * caller sees which memories the answer missed; a repeated number keeps its first usable entry. A
 * batch of one also accepts the single-memory shapes. The problem only when there is no list at all.
 */
export function parseHintsBatch(
  text: string,
  options: { max: number; count: number },
): { hints: Map<number, string[]> } | { problem: string } {
  const json = readModelJson(text);
  if ("problem" in json) return json;
  const hints = new Map<number, string[]>();
  const batch = lenientBatchSchema.safeParse(json.value);
  if (!batch.success) {
    if (options.count !== 1) return { problem: 'the answer has no "memories" list' };
    const single = parseHints(text, options.max);
    if ("problem" in single) return single;
    hints.set(1, single.hints);
    return { hints };
  }
  for (const raw of batch.data.memories) {
    const entry = lenientEntrySchema.safeParse(raw);
    if (!entry.success || entry.data.id < 1 || entry.data.id > options.count || hints.has(entry.data.id)) continue;
    const questions = cleanQuestions(entry.data.questions, options.max);
    if (questions.length > 0) hints.set(entry.data.id, questions);
  }
  return { hints };
}
