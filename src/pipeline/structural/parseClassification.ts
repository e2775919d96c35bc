import { z } from "zod";
import { modelJsonSchema } from "../../providers/llm/modelJsonSchema.js";
import { readModelJson } from "../../providers/llm/readModelJson.js";
import type { MentionKind } from "../../store/contracts/aspects.js";
import { canonicalAspectName } from "../../store/repositories/aspectRepository.js";
import { ENTITY_TYPES, type EntityType } from "./aspectSuggestions.js";

/** Longer than this is a sentence, not the name of a part of a thing. */
const MAX_ASPECT_CHARS = 60;

/** The classification answer as the model is asked to give it; the request's JSON Schema is generated from it. */
export const classificationAnswerSchema = z.object({
  entityType: z.enum(ENTITY_TYPES),
  facts: z.array(
    z.object({
      i: z.number().int(),
      aspect: z.string(),
      kind: z.enum(["attribute", "constraint"]),
      new: z.boolean(),
    }),
  ),
});

export const classificationJsonSchema = modelJsonSchema(classificationAnswerSchema);

/** What the reader accepts: the object with loosely typed fields, or the seed's bare list of items. */
const lenientAnswerSchema = z.union([
  z.object({ entityType: z.unknown().optional(), facts: z.array(z.unknown()) }).loose(),
  z.array(z.unknown()),
]);
const itemShape = classificationAnswerSchema.shape.facts.element.shape;

export interface ParsedClassification {
  /** One per answered fact, by its index in the prompt. */
  facts: { index: number; aspect: string; kind: MentionKind }[];
  /** Only a canonical type; anything else the model wrote is ignored, not an error. */
  entityType?: EntityType;
  /** Facts the answer left out: they stay waiting. */
  missing: number[];
}

/**
 * Reads a classification of `count` facts. Any malformed item (an index out of range or repeated, an
 * unknown kind, an empty or sentence-long aspect) makes the whole answer unusable, so a confused answer
 * never files some facts under wrong aspects: the job fails and the queue retries it.
 */
export function parseClassification(text: string, count: number): ParsedClassification | { problem: string } {
  const json = readModelJson(text);
  if ("problem" in json) return json;
  return readClassification(json.value, count);
}

/** The same reading of one entity's answer already parsed from JSON (one entry of a batched answer). */
export function readClassification(value: unknown, count: number): ParsedClassification | { problem: string } {
  const parsed = lenientAnswerSchema.safeParse(value);
  if (!parsed.success) return { problem: 'the answer has no "facts" list' };
  const items = Array.isArray(parsed.data) ? parsed.data : parsed.data.facts;
  const facts: ParsedClassification["facts"] = [];
  const seen = new Set<number>();
  for (const [position, item] of items.entries()) {
    const read = readItem(item, count);
    if ("problem" in read) return { problem: `item ${position}: ${read.problem}` };
    if (seen.has(read.index)) return { problem: `item ${position}: fact ${read.index} is answered twice` };
    seen.add(read.index);
    facts.push(read);
  }
  if (facts.length === 0) return { problem: "the answer classifies no fact" };
  const result: ParsedClassification = {
    facts,
    missing: [...Array(count).keys()].filter((index) => !seen.has(index)),
  };
  const type = Array.isArray(parsed.data)
    ? undefined
    : classificationAnswerSchema.shape.entityType.safeParse(
        typeof parsed.data.entityType === "string" ? parsed.data.entityType.trim().toLowerCase() : undefined,
      );
  if (type?.success) result.entityType = type.data;
  return result;
}

function readItem(item: unknown, count: number): ParsedClassification["facts"][number] | { problem: string } {
  if (typeof item !== "object" || item === null) return { problem: "not an object" };
  const raw = item as Record<string, unknown>;
  const index = itemShape.i.safeParse(raw.i);
  if (!index.success || index.data < 0 || index.data >= count) return { problem: `no fact numbered ${String(raw.i)}` };
  const kind = itemShape.kind.safeParse(typeof raw.kind === "string" ? raw.kind.trim().toLowerCase() : raw.kind);
  if (!kind.success) return { problem: `unknown kind ${String(raw.kind)}` };
  const aspect = typeof raw.aspect === "string" ? raw.aspect.trim().replace(/\s+/g, " ") : "";
  if (canonicalAspectName(aspect) === "") return { problem: "no aspect named" };
  if (aspect.length > MAX_ASPECT_CHARS) return { problem: "the aspect is a sentence, not a name" };
  return { index: index.data, aspect, kind: kind.data };
}
