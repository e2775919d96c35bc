import { randomBytes } from "node:crypto";
import type { ItemRecord, SessionRecord } from "../../collection/types.js";
import { fillTemplate, loadPrompt } from "../../prompts/template.js";
import type { LlmProvider } from "../../providers/llm/types.js";
import { tokenCount } from "../../text/tokens.js";
import { toIso } from "../../util/clock.js";
import { extractOffline } from "./offline/offlineExtractor.js";
import { parseStage1, stage1Schema } from "./parseStage1.js";
import { type RenderOptions, renderSession } from "./renderSession.js";
import type { SessionItems } from "./sessionItems.js";
import type { Stage1Extraction } from "./types.js";

export interface ExtractionResult {
  extraction: Stage1Extraction | null;
  tokensIn: number | undefined;
  tokensOut: number | undefined;
  warnings: string[];
}

/** Builds the stage-one prompt: fixed instructions, and the session as quoted data between random markers. */
export function buildStage1Prompt(
  session: SessionRecord,
  items: SessionItems | readonly ItemRecord[],
  options: RenderOptions,
): { system: string; prompt: string; renderedTokens: () => number; omitted: number } {
  const rendered = renderSession(items, options);
  // A random boundary: transcript text cannot predict it, so it cannot fake the end of the data section.
  const boundary = randomBytes(6).toString("hex");
  const prompt = fillTemplate(loadPrompt("stage_one_input.md"), {
    thread_id: session.id,
    agent: session.agent,
    kind: session.kind,
    cwd: session.cwd ?? "unknown",
    started_at: toIso(session.startedAt) ?? "unknown",
    updated_at: toIso(session.updatedAt) ?? "unknown",
    omitted_note:
      rendered.omitted > 0 ? `(${rendered.omitted} items in the middle were left out to fit the budget.)` : "",
    boundary,
    response_items_json: rendered.json,
  });
  return {
    system: loadPrompt("stage_one_system.md"),
    prompt,
    renderedTokens: () => rendered.tokens ?? tokenCount(rendered.json),
    omitted: rendered.omitted,
  };
}

/** One session through the model (or the offline extractor when there is none). */
export async function extractSession(options: {
  session: SessionRecord;
  items: SessionItems | readonly ItemRecord[];
  llm: LlmProvider | null;
  render: RenderOptions;
  /** The prompt built ahead from these same items (promptsAhead.ts); built here when absent. */
  prompt?: { system: string; prompt: string };
  signal?: AbortSignal;
}): Promise<ExtractionResult> {
  if (!options.llm) {
    const { items } = options;
    const extraction = extractOffline(options.session, "forward" in items ? items.forward() : items);
    return { extraction, tokensIn: 0, tokensOut: 0, warnings: [] };
  }
  const { system, prompt } = options.prompt ?? buildStage1Prompt(options.session, options.items, options.render);
  const result = await options.llm.generate({
    system,
    prompt,
    jsonSchema: { name: "stage1_memory", schema: stage1Schema },
    temperature: 0,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const parsed = parseStage1(result.text);
  const empty = parsed.extraction.rawMemory.length === 0 && parsed.extraction.rolloutSummary.length === 0;
  return {
    extraction: empty ? null : parsed.extraction,
    tokensIn: result.usage.inputTokens,
    tokensOut: result.usage.outputTokens,
    warnings: [...result.warnings, ...parsed.warnings],
  };
}
