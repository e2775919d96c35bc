import { z } from "zod";
import { modelJsonSchema } from "../../providers/llm/modelJsonSchema.js";
import { readConfidence } from "../phase1/parseStage1.js";
import type { FactDecision } from "./types.js";

/**
 * The decision answer as the prompt asks for it (fact_decision.md); the request's JSON Schema is
 * generated from it. targetId is null for ADD and NONE.
 */
export const decisionAnswerSchema = z.object({
  action: z.enum(["ADD", "UPDATE", "DELETE", "NONE"]),
  targetId: z.int().nullable(),
  confidence: z.number().min(0).max(1),
  reason: z.string(),
});

/** The JSON Schema sent to providers with a structured-output mode. */
export const decisionJsonSchema = modelJsonSchema(decisionAnswerSchema);

/** Strips `<think>` blocks and Markdown fences some models wrap around JSON. */
export function cleanModelJson(text: string): string {
  return text
    .replace(/<think>[\s\S]*?<\/think>/gi, "")
    .replace(/^\s*```(?:json)?\s*/i, "")
    .replace(/\s*```\s*$/, "")
    .trim();
}

/**
 * Validates a decision answer: a known action, a target among the candidates for UPDATE and DELETE,
 * a non-empty reason. Returns the problem instead of throwing, so the caller can fall back.
 */
export function parseDecision(text: string, candidateIds: number[]): { decision: FactDecision } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(cleanModelJson(text));
  } catch {
    return { problem: "decision is not JSON" };
  }
  if (typeof value !== "object" || value === null) return { problem: "decision is not an object" };
  const raw = value as Record<string, unknown>;
  const known = decisionAnswerSchema.shape.action.safeParse(
    typeof raw.action === "string" ? raw.action.toUpperCase() : raw.action,
  );
  if (!known.success) return { problem: `unknown action ${String(raw.action)}` };
  const action = known.data;
  const reason = typeof raw.reason === "string" ? raw.reason.trim() : "";
  if (reason.length === 0) return { problem: "empty reason" };
  const confidence = readConfidence(raw.confidence);
  const decision: FactDecision = { action, confidence, reason, decidedBy: "llm" };
  if (action === "UPDATE" || action === "DELETE") {
    const target = Number(raw.targetId);
    if (!candidateIds.includes(target)) return { problem: `targetId ${String(raw.targetId)} is not a candidate` };
    decision.targetId = target;
  }
  return { decision };
}
