import { z } from "zod";
import { modelJsonSchema } from "../../providers/llm/modelJsonSchema.js";
import { readConfidence } from "../phase1/parseStage1.js";
import type { FactDecision } from "./types.js";

const decisionShape = {
  action: z.enum(["ADD", "UPDATE", "DELETE", "NONE"]),
  targetId: z.int().nullable(),
  confidence: z.number().min(0).max(1),
  reason: z.string(),
};

/** One decision as a model states it; targetId is null for ADD (and may be for NONE). */
export const decisionAnswerSchema = z.object(decisionShape);

/**
 * The answer fact_decisions.md asks for: one decision per fact of the session, each naming its fact
 * by number. The request's JSON Schema is generated from it.
 */
export const decisionsAnswerSchema = z.object({
  decisions: z.array(z.object({ fact: z.int(), ...decisionShape })),
});

/** The JSON Schema sent to providers with a structured-output mode. */
export const decisionsJsonSchema = modelJsonSchema(decisionsAnswerSchema);

import { readModelJson } from "../../providers/llm/readModelJson.js";

/**
 * Validates one decision: a known action, a target among the candidates for UPDATE and DELETE, a
 * non-empty reason. Lenient where a model commonly slips (lower-case action, id as a string, a
 * confidence out of range); returns the problem instead of throwing, so the caller can fall back.
 */
export function readDecision(value: unknown, candidateIds: number[]): { decision: FactDecision } | { problem: string } {
  if (typeof value !== "object" || value === null) return { problem: "decision is not an object" };
  const raw = value as Record<string, unknown>;
  const known = decisionShape.action.safeParse(typeof raw.action === "string" ? raw.action.toUpperCase() : raw.action);
  if (!known.success) return { problem: `unknown action ${String(raw.action)}` };
  const action = known.data;
  const reason = typeof raw.reason === "string" ? raw.reason.trim() : "";
  if (reason.length === 0) return { problem: "empty reason" };
  const confidence = readConfidence(raw.confidence);
  const decision: FactDecision = { action, confidence, reason, decidedBy: "llm" };
  const target = Number(raw.targetId);
  if (action === "UPDATE" || action === "DELETE") {
    if (!candidateIds.includes(target)) return { problem: `targetId ${String(raw.targetId)} is not a candidate` };
    decision.targetId = target;
  }
  // NONE names the candidate that already says the fact when the model gives one (it may not).
  if (action === "NONE" && raw.targetId !== null && candidateIds.includes(target)) decision.targetId = target;
  return { decision };
}

/** One decision answer as text (JSON, maybe fenced). */
export function parseDecision(text: string, candidateIds: number[]): { decision: FactDecision } | { problem: string } {
  const json = readModelJson(text);
  return "problem" in json ? { problem: "decision is not JSON" } : readDecision(json.value, candidateIds);
}

/**
 * Reads the batched answer: the decision for each fact number asked about, and one problem line per
 * fact whose decision is missing or unusable (the caller decides those deterministically). A fact
 * answered twice keeps its first usable decision.
 */
export function parseDecisions(
  text: string,
  candidatesByFact: ReadonlyMap<number, number[]>,
): { decisions: Map<number, FactDecision>; problems: string[] } {
  const decisions = new Map<number, FactDecision>();
  const problems: string[] = [];
  const json = readModelJson(text);
  if ("problem" in json) return { decisions, problems: ["the decisions answer is not JSON"] };
  const { value } = json;
  const list = typeof value === "object" && value !== null ? (value as { decisions?: unknown }).decisions : undefined;
  if (!Array.isArray(list)) return { decisions, problems: ["the decisions answer has no decisions list"] };
  for (const item of list) {
    const fact = Number((item as { fact?: unknown } | null)?.fact);
    const candidates = candidatesByFact.get(fact);
    if (candidates === undefined) {
      problems.push(
        `a decision names fact ${String((item as { fact?: unknown } | null)?.fact)}, which was not asked about`,
      );
      continue;
    }
    if (decisions.has(fact)) continue;
    const read = readDecision(item, candidates);
    if ("decision" in read) decisions.set(fact, read.decision);
    else problems.push(`fact ${fact}: ${read.problem}`);
  }
  for (const fact of candidatesByFact.keys()) {
    if (!decisions.has(fact) && !problems.some((p) => p.startsWith(`fact ${fact}:`)))
      problems.push(`fact ${fact}: no decision`);
  }
  return { decisions, problems };
}
