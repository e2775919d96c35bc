import { z } from "zod";
import { cleanSearchTerms, MAX_SEARCH_TERMS } from "../../memory/searchTerms.js";
import { modelJsonSchema } from "../../providers/llm/modelJsonSchema.js";
import { guardText } from "../../redact/guard.js";
import { redactText } from "../../redact/redact.js";
import { addressesAgent, withoutAgentDirected } from "../../text/addressesAgent.js";
import { pointsToTranscript } from "./offline/preferences.js";
import {
  type EntityTriple,
  type ExtractedFact,
  type FactType,
  factScopes,
  factTypes,
  type Stage1Extraction,
} from "./types.js";

export interface ParsedStage1 {
  extraction: Stage1Extraction;
  warnings: string[];
}

const MAX_FACTS = 20;
const MIN_FACT_CHARS = 10;
const MAX_FACT_CHARS = 2000;
const MAX_ENTITIES = 50;

const confidenceSchema = z.number().min(0).max(1);
const factSchema = z.object({
  content: z.string(),
  type: z.enum(factTypes),
  scope: z.enum(factScopes),
  confidence: confidenceSchema,
  evidence: z.array(z.int()),
  terms: z.array(z.string()).max(MAX_SEARCH_TERMS),
});
const entitySchema = z.object({
  source: z.string(),
  relationship: z.string(),
  target: z.string(),
  confidence: confidenceSchema,
});

/**
 * The stage-1 answer as the model is asked to give it. The request's JSON Schema is generated from it,
 * and the reader below checks each field against it, repairing or dropping what fails (with a warning)
 * instead of rejecting the whole answer.
 */
export const stage1AnswerSchema = z.object({
  rollout_summary: z.string(),
  rollout_slug: z.string().nullable(),
  raw_memory: z.string(),
  facts: z.array(factSchema).max(MAX_FACTS),
  entities: z.array(entitySchema).max(MAX_ENTITIES),
});

/** The JSON Schema requested from providers that support structured output. */
export const stage1Schema = modelJsonSchema(stage1AnswerSchema);

/**
 * Reads a model's stage-1 answer. Strips `<think>` blocks and code fences, accepts the legacy keys
 * `summary` and `rawMemory`, and validates field by field: a bad fact is dropped with a warning, the
 * rest is kept. Text addressed to an agent ("ignore previous instructions ...") is dropped from every
 * field, whoever the model says said it. Throws only when there is no JSON object at all or neither memory field is a string.
 */
export function parseStage1(answer: string): ParsedStage1 {
  const warnings: string[] = [];
  const object = extractJsonObject(answer);
  const rawMemory = pickString(object, ["raw_memory", "rawMemory"]);
  const rolloutSummary = pickString(object, ["rollout_summary", "summary"]);
  if (rawMemory === undefined && rolloutSummary === undefined) {
    throw new Error("answer has neither raw_memory nor rollout_summary");
  }
  if ("summary" in object && !("rollout_summary" in object)) warnings.push("legacy key 'summary' accepted");
  if ("rawMemory" in object && !("raw_memory" in object)) warnings.push("legacy key 'rawMemory' accepted");
  const slug = object.rollout_slug;
  // A model can repeat pasted instructions as if the user had said them; they never become memory.
  const guarded = (text: string | undefined, field: string) => {
    const result = withoutAgentDirected((text ?? "").trim());
    if (result.dropped > 0) warnings.push(`${field}: dropped ${result.dropped} line(s) addressed to an agent`);
    return result.text.trim();
  };
  return {
    extraction: {
      rolloutSummary: guarded(rolloutSummary, "rollout_summary"),
      rawMemory: guarded(rawMemory, "raw_memory"),
      // Guarded before it is lowercased: the rules read a token's case and its `_`, which slugify loses.
      rolloutSlug: typeof slug === "string" && slug.trim() ? slugify(guardText(slug)) || null : null,
      facts: parseFacts(object.facts, warnings),
      entities: parseEntities(object.entities, warnings),
    },
    warnings,
  };
}

/** The first balanced JSON object in the text, after removing reasoning blocks and fences. */
export function extractJsonObject(answer: string): Record<string, unknown> {
  const cleaned = answer
    .replace(/<think>[\s\S]*?<\/think>/gi, "")
    .replace(/```(?:json)?/gi, "")
    .trim();
  const start = cleaned.indexOf("{");
  const end = cleaned.lastIndexOf("}");
  if (start === -1 || end <= start) throw new Error("answer contains no JSON object");
  let parsed: unknown;
  try {
    parsed = JSON.parse(cleaned.slice(start, end + 1));
  } catch (error) {
    // The parser's message quotes the answer, and the error is printed and stored: redacted first.
    throw new Error(`answer is not valid JSON (${error instanceof Error ? redactText(error.message) : "parse error"})`);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed))
    throw new Error("answer is not a JSON object");
  return parsed as Record<string, unknown>;
}

function pickString(object: Record<string, unknown>, keys: string[]): string | undefined {
  for (const key of keys) if (typeof object[key] === "string") return object[key] as string;
  return undefined;
}

function parseFacts(value: unknown, warnings: string[]): ExtractedFact[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    warnings.push("facts is not a list; ignored");
    return [];
  }
  if (value.length > MAX_FACTS) warnings.push(`${value.length} facts; kept the first ${MAX_FACTS}`);
  const facts: ExtractedFact[] = [];
  for (const [index, raw] of value.slice(0, MAX_FACTS).entries()) {
    const fact = raw as Record<string, unknown> | null;
    // A list marker ("- - ...") is layout a model sometimes copies; it is not part of the statement.
    const content =
      typeof fact?.content === "string" ? fact.content.trim().replace(/^(?:(?:[-*+\u2022]|\d{1,3}[.)])\s+)+/, "") : "";
    if (content.length < MIN_FACT_CHARS) {
      warnings.push(`fact ${index}: shorter than ${MIN_FACT_CHARS} characters; dropped`);
      continue;
    }
    if (addressesAgent(content)) {
      warnings.push(`fact ${index}: addressed to an agent, not said by the user; dropped`);
      continue;
    }
    const known = factSchema.shape.type.safeParse(fact?.type);
    if (!known.success) warnings.push(`fact ${index}: unknown type ${JSON.stringify(fact?.type)}; coerced to fact`);
    const type: FactType = known.success ? known.data : "fact";
    if (type === "preference" && pointsToTranscript(content)) {
      warnings.push(`fact ${index}: a path to a session transcript is not a preference; dropped`);
      continue;
    }
    if (content.length > MAX_FACT_CHARS) warnings.push(`fact ${index}: truncated to ${MAX_FACT_CHARS} characters`);
    const confidence = readConfidence(fact?.confidence);
    const evidence = Array.isArray(fact?.evidence)
      ? fact.evidence.filter((id): id is number => Number.isInteger(id) && (id as number) > 0)
      : [];
    const terms = readTerms(fact?.terms, `fact ${index}`, warnings);
    // An answer without a scope (an older prompt, a model that left it out) is scoped by its wording later.
    const scope = factSchema.shape.scope.safeParse(fact?.scope);
    if (!scope.success && fact?.scope !== undefined)
      warnings.push(`fact ${index}: unknown scope ${JSON.stringify(fact?.scope)}; decided from its wording`);
    facts.push({
      content: content.slice(0, MAX_FACT_CHARS),
      type,
      ...(scope.success ? { scope: scope.data } : {}),
      confidence,
      evidence,
      ...(terms ? { terms } : {}),
    });
  }
  return facts;
}

/**
 * A fact's search terms, cleaned and capped as the store keeps them (src/memory/searchTerms.ts). A
 * missing or malformed list costs the fact nothing but its terms; a problem is named in a warning.
 */
function readTerms(value: unknown, where: string, warnings: string[]): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) {
    warnings.push(`${where}: terms is not a list; ignored`);
    return undefined;
  }
  if (value.length > MAX_SEARCH_TERMS)
    warnings.push(`${where}: ${value.length} terms; kept at most ${MAX_SEARCH_TERMS}`);
  const kept = cleanSearchTerms(value);
  const dropped = Math.min(value.length, MAX_SEARCH_TERMS) - kept.length;
  if (dropped > 0)
    warnings.push(`${where}: ${dropped} terms dropped (not text, empty, too long, redacted or repeated)`);
  return kept.length === 0 ? undefined : kept;
}

function parseEntities(value: unknown, warnings: string[]): EntityTriple[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    warnings.push("entities is not a list; ignored");
    return [];
  }
  if (value.length > MAX_ENTITIES) warnings.push(`${value.length} entities; kept the first ${MAX_ENTITIES}`);
  const entities: EntityTriple[] = [];
  for (const [index, raw] of value.slice(0, MAX_ENTITIES).entries()) {
    const entity = raw as Record<string, unknown> | null;
    const parts = [entity?.source, entity?.relationship, entity?.target].map((part) =>
      typeof part === "string" ? part.trim() : "",
    );
    if (parts.some((part) => part.length === 0)) {
      warnings.push(`entity ${index}: empty source, relationship or target; dropped`);
      continue;
    }
    const confidence = readConfidence(entity?.confidence);
    entities.push({ source: parts[0]!, relationship: parts[1]!, target: parts[2]!, confidence });
  }
  return entities;
}

/** A confidence in range as given, any other number clamped into it, anything else 0.5. */
export function readConfidence(value: unknown): number {
  const inRange = confidenceSchema.safeParse(value);
  if (inRange.success) return inRange.data;
  return typeof value === "number" ? Math.min(1, Math.max(0, value)) : 0.5;
}

function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .split("-")
    .slice(0, 8)
    .join("-")
    .slice(0, 60);
}
