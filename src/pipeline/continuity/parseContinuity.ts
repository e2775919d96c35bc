import { readModelJson } from "../../providers/llm/readModelJson.js";

export const continuityJsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["score", "confidence", "reasoning", "per_memory"],
  properties: {
    score: { type: "number" },
    confidence: { type: "number" },
    reasoning: { type: "string" },
    per_memory: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["id", "relevance"],
        properties: { id: { type: "string" }, relevance: { type: "number" } },
      },
    },
  },
} as const;

export interface ContinuityAnswer {
  score: number;
  confidence: number;
  reasoning: string;
  /** Relevance by memory id, only for ids the session was given. */
  relevance: Map<number, number>;
}

const clamp01 = (x: unknown) => (typeof x === "number" && Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);

/**
 * A model's continuity answer: fences and think blocks stripped, scores clamped to [0, 1], missing
 * fields as zero, each memory found by its id as given (`#42`, `42`, or a prefix of its digits that
 * names one given memory only); ids it was not given are dropped.
 */
export function parseContinuity(text: string, given: readonly number[]): ContinuityAnswer | { problem: string } {
  const read = readModelJson(text);
  if ("problem" in read) return read;
  if (typeof read.value !== "object" || read.value === null) return { problem: "the answer is not a JSON object" };
  const value = read.value as Record<string, unknown>;
  const relevance = new Map<number, number>();
  const entries = Array.isArray(value.per_memory) ? value.per_memory : [];
  for (const entry of entries) {
    if (typeof entry !== "object" || entry === null) continue;
    const { id, relevance: r } = entry as { id?: unknown; relevance?: unknown };
    const memory = resolveId(String(id ?? ""), given);
    if (memory !== undefined) relevance.set(memory, clamp01(r));
  }
  return {
    score: clamp01(value.score),
    confidence: clamp01(value.confidence),
    reasoning: typeof value.reasoning === "string" ? value.reasoning.slice(0, 2000) : "",
    relevance,
  };
}

function resolveId(raw: string, given: readonly number[]): number | undefined {
  const digits = raw.trim().replace(/^(?:memory\s*)?#/i, "");
  if (!/^\d{1,15}$/.test(digits)) return undefined;
  const exact = given.find((id) => String(id) === digits);
  if (exact !== undefined) return exact;
  const prefixed = given.filter((id) => String(id).startsWith(digits));
  return prefixed.length === 1 ? prefixed[0] : undefined;
}
