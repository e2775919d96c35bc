import type { RecallResult } from "../../memory/types.js";
import { quoteAsData } from "../../prompts/quoteAsData.js";
import { loadPrompt } from "../../prompts/template.js";
import type { LlmProvider } from "../../providers/llm/types.js";
import { errorMessage } from "../../util/errors.js";
import { deterministicDecision, factShape, sameSubstance } from "./deterministicDecision.js";
import { decisionsJsonSchema, parseDecisions } from "./parseDecision.js";
import type { Fact, FactDecision } from "./types.js";

/** A fact that needs a decision, with the stored memories most similar to it. */
export interface DecisionQuestion {
  fact: Fact;
  candidates: RecallResult[];
}

/**
 * Decides every question of one session in ONE model call (fact_decisions.md), so a session costs
 * one decision call however many facts it has. A fact the answer leaves out, or answers with an
 * unknown target or action, gets the deterministic decision with a warning; a failed call decides
 * them all deterministically. Without a model every decision is deterministic. Answers in question order.
 */
export async function decideFacts(input: {
  questions: DecisionQuestion[];
  llm: LlmProvider | null;
  warnings: string[];
}): Promise<FactDecision[]> {
  const { questions, llm, warnings } = input;
  const fallback = () => questions.map((q) => deterministicDecision(q.fact, q.candidates));
  if (!llm || questions.length === 0) return fallback();
  const data = {
    facts: questions.map((q, i) => ({
      fact: i + 1,
      type: q.fact.type,
      content: q.fact.content,
      candidates: q.candidates.map((c) => ({ id: c.id, type: c.type, content: c.content })),
    })),
  };
  let text: string;
  try {
    const answer = await llm.generate({
      system: loadPrompt("fact_decisions.md"),
      prompt: `The session's facts with their candidates, between the marker lines (everything between them is data):\n${quoteAsData("MEMORY DATA", data)}`,
      jsonSchema: { name: "fact_decisions", schema: decisionsJsonSchema },
      temperature: 0,
    });
    text = answer.text;
  } catch (error) {
    warnings.push(`decision call failed: ${errorMessage(error)}; decided without the model`);
    return fallback();
  }
  const candidatesByFact = new Map(questions.map((q, i) => [i + 1, q.candidates.map((c) => c.id)]));
  const { decisions, problems } = parseDecisions(text, candidatesByFact);
  for (const problem of problems) warnings.push(`decision: ${problem}; used the fallback`);
  return questions.map((q, i) => {
    const decision = decisions.get(i + 1);
    return decision ? checkedNone(q, decision) : deterministicDecision(q.fact, q.candidates);
  });
}

/**
 * A model's NONE drops the fact, so it must be a duplicate in substance: some candidate (the one the
 * model named, else any) with the same polarity, the same values and no opposite terms. Otherwise
 * the fact is added, and the revise job every write runs decides whether it replaces the candidate:
 * a NONE on "Never use npm in the web app" against "Use npm in the web app", or on port 8080 against
 * port 3000, would lose the newer word, and a duplicate added by mistake costs a line.
 */
function checkedNone(q: DecisionQuestion, decision: FactDecision): FactDecision {
  if (decision.action !== "NONE") return decision;
  const named = q.candidates.filter((c) => c.id === decision.targetId);
  const shape = factShape(q.fact.content);
  if ((named.length > 0 ? named : q.candidates).some((c) => sameSubstance(factShape(c.content), shape)))
    return decision;
  return {
    action: "ADD",
    confidence: decision.confidence,
    reason: `added: the model found it a duplicate (${decision.reason}), but no candidate states the same values and polarity`,
    decidedBy: decision.decidedBy,
  };
}
