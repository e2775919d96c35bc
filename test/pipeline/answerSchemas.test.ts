import { describe, expect, it } from "vitest";
import { decisionsJsonSchema } from "../../src/pipeline/facts/parseDecision.js";
import { hintsJsonSchema } from "../../src/pipeline/hints/parseHints.js";
import { stage1Schema } from "../../src/pipeline/phase1/parseStage1.js";
import { workspaceJsonSchema } from "../../src/pipeline/phase2/consolidators/llmConsolidator.js";

const confidence = { type: "number", minimum: 0, maximum: 1 };

/** The hand-written literals the generated schemas replaced: the models were asked for exactly this. */
const stage1Literal = {
  type: "object",
  additionalProperties: false,
  required: ["rollout_summary", "rollout_slug", "raw_memory", "facts", "entities"],
  properties: {
    rollout_summary: { type: "string" },
    rollout_slug: { type: ["string", "null"] },
    raw_memory: { type: "string" },
    facts: {
      type: "array",
      maxItems: 20,
      items: {
        type: "object",
        additionalProperties: false,
        required: ["content", "type", "scope", "confidence", "evidence", "terms"],
        properties: {
          content: { type: "string" },
          type: { type: "string", enum: ["fact", "preference", "decision", "procedural", "semantic"] },
          scope: { type: "string", enum: ["project", "global"] },
          confidence,
          evidence: { type: "array", items: { type: "integer" } },
          terms: { type: "array", maxItems: 12, items: { type: "string" } },
        },
      },
    },
    entities: {
      type: "array",
      maxItems: 50,
      items: {
        type: "object",
        additionalProperties: false,
        required: ["source", "relationship", "target", "confidence"],
        properties: {
          source: { type: "string" },
          relationship: { type: "string" },
          target: { type: "string" },
          confidence,
        },
      },
    },
  },
};

const hintsLiteral = {
  type: "object",
  properties: {
    memories: {
      type: "array",
      items: {
        type: "object",
        properties: { id: { type: "integer" }, questions: { type: "array", items: { type: "string" } } },
        required: ["id", "questions"],
        additionalProperties: false,
      },
    },
  },
  required: ["memories"],
  additionalProperties: false,
};

const workspaceLiteral = {
  type: "object",
  additionalProperties: false,
  required: ["memory_md", "memory_summary_md", "skills"],
  properties: {
    memory_md: { type: "string" },
    memory_summary_md: { type: "string" },
    skills: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["name", "description", "body"],
        properties: { name: { type: "string" }, description: { type: "string" }, body: { type: "string" } },
      },
    },
  },
};

/** The decisions prompt's answer line (fact_decisions.md), as a schema. */
const decisionsExpected = {
  type: "object",
  additionalProperties: false,
  required: ["decisions"],
  properties: {
    decisions: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["fact", "action", "targetId", "confidence", "reason"],
        properties: {
          fact: { type: "integer" },
          action: { type: "string", enum: ["ADD", "UPDATE", "DELETE", "NONE"] },
          targetId: { type: ["integer", "null"] },
          confidence,
          reason: { type: "string" },
        },
      },
    },
  },
};

/**
 * OpenAI's strict structured outputs (which codex's --output-schema also enforces): every object closed,
 * every property required, and only keywords that constrain the answer.
 */
function strictProblems(schema: unknown, path = "$"): string[] {
  if (schema === null || typeof schema !== "object") return [];
  const node = schema as Record<string, unknown>;
  const problems: string[] = [];
  for (const key of ["$schema", "default", "$ref", "definitions", "$defs"]) {
    if (key in node) problems.push(`${path}: has ${key}`);
  }
  if (node.type === "object") {
    const keys = Object.keys((node.properties as object) ?? {});
    if (node.additionalProperties !== false) problems.push(`${path}: additionalProperties is not false`);
    if (JSON.stringify([...((node.required as string[]) ?? [])].sort()) !== JSON.stringify([...keys].sort())) {
      problems.push(`${path}: not every property is required`);
    }
  }
  for (const [key, value] of Object.entries(node)) {
    if (key === "properties") {
      for (const [name, child] of Object.entries(value as object))
        problems.push(...strictProblems(child, `${path}.${name}`));
    } else if (key === "items") problems.push(...strictProblems(value, `${path}[]`));
  }
  return problems;
}

describe.each([
  ["stage1_memory", stage1Schema, stage1Literal],
  ["prospective_hints", hintsJsonSchema, hintsLiteral],
  ["memory_workspace", workspaceJsonSchema, workspaceLiteral],
  ["fact_decisions", decisionsJsonSchema, decisionsExpected],
])("the %s schema generated from its zod schema", (_name, generated, expected) => {
  it("asks the model for the same shape as the hand-written schema did", () => {
    expect(generated).toEqual(expected);
  });

  it("follows OpenAI's strict structured-output rules", () => {
    expect(strictProblems(generated)).toEqual([]);
  });
});
