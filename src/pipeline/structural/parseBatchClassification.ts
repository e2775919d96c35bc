import { z } from "zod";
import { modelJsonSchema } from "../../providers/llm/modelJsonSchema.js";
import { readModelJson } from "../../providers/llm/readModelJson.js";
import { classificationAnswerSchema, type ParsedClassification, readClassification } from "./parseClassification.js";

/** The batched answer as the model is asked to give it: one classification per entity, numbered "e". */
export const batchAnswerSchema = z.object({
  entities: z.array(classificationAnswerSchema.extend({ e: z.number().int() })),
});

export const batchJsonSchema = modelJsonSchema(batchAnswerSchema);

/**
 * Per entity of the call, by its number: its classification, the problem that makes its answer
 * unusable, or undefined when the answer left the entity out.
 */
export type EntityAnswer = ParsedClassification | { problem: string } | undefined;

const lenientBatchSchema = z.object({ entities: z.array(z.unknown()) }).loose();

/**
 * Reads the answer to a call about `factCounts.length` entities (entity e has factCounts[e] facts).
 * Each entity's entry is validated on its own, as a one-entity answer is, so a malformed entry fails
 * only its entity; an entry that cannot be told apart (no number, out of range, repeated) makes the
 * whole answer unusable, since it may be the one meant for another entity. A one-entity call also
 * accepts the unbatched shape ({"entityType", "facts"} or the bare list).
 */
export function parseBatchClassification(
  text: string,
  factCounts: readonly number[],
): EntityAnswer[] | { problem: string } {
  const json = readModelJson(text);
  if ("problem" in json) return json;
  const batch = lenientBatchSchema.safeParse(json.value);
  if (!batch.success) {
    if (factCounts.length === 1) return [readClassification(json.value, factCounts[0]!)];
    return { problem: 'the answer has no "entities" list' };
  }
  const answers: EntityAnswer[] = factCounts.map(() => undefined);
  const seen = new Set<number>();
  for (const [position, entry] of batch.data.entities.entries()) {
    const raw = typeof entry === "object" && entry !== null ? (entry as Record<string, unknown>) : {};
    const e = z.number().int().safeParse(raw.e);
    if (!e.success || e.data < 0 || e.data >= factCounts.length)
      return { problem: `entry ${position}: no entity numbered ${String(raw.e)}` };
    if (seen.has(e.data)) return { problem: `entry ${position}: entity ${e.data} is answered twice` };
    seen.add(e.data);
    answers[e.data] = readClassification(entry, factCounts[e.data]!);
  }
  return answers;
}
