import { randomBytes } from "node:crypto";
import { z } from "zod";
import { fillTemplate, loadPrompt } from "../../../prompts/template.js";
import { modelJsonSchema } from "../../../providers/llm/modelJsonSchema.js";
import type { LlmProvider } from "../../../providers/llm/types.js";
import { tokenCount, truncateToTokens } from "../../../text/tokens.js";
import { toIso } from "../../../util/clock.js";
import { extractJsonObject } from "../../phase1/parseStage1.js";
import type { Stage1Output } from "../../phase1/types.js";
import { otherFacts } from "../consolidationInputs.js";
import { skillFolderName } from "../skillFolderName.js";
import { consolidationPrompt } from "./consolidationPrompt.js";
import type { ConsolidatedFiles, ConsolidationInput, Consolidator, SkillFile } from "./types.js";

/** Stale memories shown to the model; older ones are caught by the check after it answers. */
const MAX_STALE_SHOWN = 100;

const skillSchema = z.object({ name: z.string(), description: z.string(), body: z.string() });

/** The consolidation answer as the model is asked to give it; the request's JSON Schema is generated from it. */
export const workspaceAnswerSchema = z.object({
  memory_md: z.string(),
  memory_summary_md: z.string(),
  skills: z.array(skillSchema),
});

export const workspaceJsonSchema = modelJsonSchema(workspaceAnswerSchema);

/**
 * Consolidation by a model (the `smol` role, falling back to `default`): the previous files and the
 * added / retained / removed diff go in as quoted data within a token budget; the new files come back
 * as structured output.
 */
export function llmConsolidator(
  llm: LlmProvider,
  options: { maxInputTokens: number; summaryTokenLimit: number },
): Consolidator {
  return {
    mode: "llm",
    async consolidate(input, context) {
      const boundary = randomBytes(6).toString("hex");
      const data = budgetedData(input, options.maxInputTokens);
      const result = await llm.generate({
        system: consolidationPrompt("consolidation_system.md", options.summaryTokenLimit, {}),
        prompt: fillTemplate(loadPrompt("consolidation_input.md"), {
          workspace:
            input.workspace.kind === "global"
              ? "global (user-level preferences and habits across projects)"
              : `project ${input.workspace.name}`,
          boundary,
          memory_data_json: JSON.stringify(data, null, 1),
        }),
        jsonSchema: { name: "memory_workspace", schema: workspaceJsonSchema },
        temperature: 0,
        signal: context.signal,
      });
      return {
        files: parseFiles(result.text),
        ...(result.usage.inputTokens === undefined ? {} : { tokensIn: result.usage.inputTokens }),
        ...(result.usage.outputTokens === undefined ? {} : { tokensOut: result.usage.outputTokens }),
        warnings: result.warnings,
      };
    },
  };
}

/** The model's data section: added memories in full first, then retained and removed summaries, to the budget. */
function budgetedData(input: ConsolidationInput, maxTokens: number) {
  let remaining = maxTokens;
  const take = (text: string, share: number) => {
    const cut = truncateToTokens(text, Math.max(0, Math.min(remaining, share)));
    remaining -= tokenCount(cut.text);
    return cut.truncated ? `${cut.text}\n[truncated to fit the budget]` : cut.text;
  };
  const entry = (output: Stage1Output, full: boolean) => {
    const facts = full ? otherFacts(output) : [];
    return {
      session_id: output.sessionId,
      summary_file: input.summaryFiles.get(output.sessionId) ?? null,
      cwd: output.cwd,
      summary: take(output.rolloutSummary, 400),
      ...(full ? { raw_memory: take(output.rawMemory, 3000) } : {}),
      ...(facts.length > 0 ? { other_facts: take(facts.join("\n"), 800) } : {}),
    };
  };
  return {
    previous_memory_md: take(input.previous.memory ?? "(none yet)", Math.floor(maxTokens / 4)),
    previous_memory_summary_md: take(input.previous.summary ?? "(none yet)", Math.floor(maxTokens / 10)),
    no_longer_true: noLongerTrue(input, (text) => take(text, 200)),
    added: input.diff.added.map((output) => entry(output, true)),
    retained: input.diff.retained.map((output) => entry(output, false)),
    removed: input.diff.removed.map((output) => entry(output, false)),
  };
}

/** The stale memories of the workspace's scope, newest first, as the prompt's `no_longer_true` section. */
function noLongerTrue(input: ConsolidationInput, take: (text: string) => string) {
  const day = (ms: number) => (toIso(ms) ?? "").slice(0, 10);
  const recent = input.stale.slice(0, MAX_STALE_SHOWN);
  return {
    replaced: recent.flatMap((entry) =>
      entry.replacement === null
        ? []
        : [{ statement: take(entry.statement), replaced_on: day(entry.at), replaced_by: take(entry.replacement) }],
    ),
    withdrawn: recent.flatMap((entry) =>
      entry.replacement === null ? [{ statement: take(entry.statement), withdrawn_on: day(entry.at) }] : [],
    ),
  };
}

function parseFiles(answer: string): ConsolidatedFiles {
  const object = extractJsonObject(answer);
  const memory = object.memory_md;
  const summary = object.memory_summary_md;
  if (typeof memory !== "string" || typeof summary !== "string") {
    throw new Error("consolidation answer lacks memory_md or memory_summary_md");
  }
  // A skill missing a field is dropped; the files are still worth keeping.
  const skills: SkillFile[] = Array.isArray(object.skills)
    ? object.skills.flatMap((raw) => {
        const skill = skillSchema.safeParse(raw);
        const name = skill.success ? skillFolderName(skill.data.name) : "";
        if (!skill.success || !name) return [];
        return [{ name, description: skill.data.description.trim(), body: skill.data.body }];
      })
    : [];
  return { memory, summary: summary.trimStart().startsWith("v1") ? summary : `v1\n${summary}`, skills };
}
