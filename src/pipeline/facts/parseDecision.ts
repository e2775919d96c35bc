import type { FactDecision } from "./types.js";

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
  const action = typeof raw.action === "string" ? raw.action.toUpperCase() : "";
  if (action !== "ADD" && action !== "UPDATE" && action !== "DELETE" && action !== "NONE") {
    return { problem: `unknown action ${String(raw.action)}` };
  }
  const reason = typeof raw.reason === "string" ? raw.reason.trim() : "";
  if (reason.length === 0) return { problem: "empty reason" };
  const confidence = typeof raw.confidence === "number" ? Math.min(1, Math.max(0, raw.confidence)) : 0.5;
  const decision: FactDecision = { action, confidence, reason, decidedBy: "llm" };
  if (action === "UPDATE" || action === "DELETE") {
    const target = Number(raw.targetId);
    if (!candidateIds.includes(target)) return { problem: `targetId ${String(raw.targetId)} is not a candidate` };
    decision.targetId = target;
  }
  return { decision };
}
