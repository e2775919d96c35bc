import { randomBytes } from "node:crypto";
import type { ItemRecord, SessionRecord } from "../../collection/types.js";
import { fillTemplate, loadPrompt } from "../../prompts/template.js";
import type { LlmProvider } from "../../providers/llm/types.js";
import { tokenCount } from "../../text/tokens.js";
import { toIso } from "../../util/clock.js";
import { extractOffline } from "./offline/offlineExtractor.js";
import { parseStage1, stage1Schema } from "./parseStage1.js";
import { type RenderOptions, renderWindows } from "./renderSession.js";
import type { SessionItems } from "./sessionItems.js";
import type { Stage1Extraction } from "./types.js";

export interface ExtractionResult {
  extraction: Stage1Extraction | null;
  tokensIn: number | undefined;
  tokensOut: number | undefined;
  warnings: string[];
}

/** pipeline.minFactConfidenceForWrite's default, for callers that pass no configuration. */
const DEFAULT_MIN_FACT_CONFIDENCE = 0.7;

export interface Stage1PromptOptions extends RenderOptions {
  /** pipeline.minFactConfidenceForWrite: facts under it are not stored as memories. */
  minFactConfidence?: number;
}

/** One window of a session as the model receives it. */
export interface Stage1Window {
  /** The prompt; `previous` is the memory the earlier windows wrote (JSON), null for the first. */
  prompt(previous: string | null): string;
  /** Tokens of the rendered items (counted when asked: a dry run without a model never asks). */
  tokens(): number;
  /** Entries rendered, omitted-item notes not counted. */
  entries: number;
  /** Items left out of this window to fit the budget. */
  omitted: number;
  itemFrom: number | null;
  itemTo: number | null;
}

export interface Stage1Prompt {
  system: string;
  /** The first window's prompt (the whole session's when it fits one call). */
  prompt: string;
  /** In session order; a session whose user messages and compactions do not fit one call has several. */
  windows: Stage1Window[];
  renderedTokens: () => number;
  omitted: number;
}

/**
 * Builds the stage-one prompts: fixed instructions, and the session as quoted data between random
 * markers, one prompt per window (renderWindows). Each window after the first carries the memory the
 * model wrote from the windows before it, so the last answer covers the whole session.
 */
export function buildStage1Prompt(
  session: SessionRecord,
  items: SessionItems | readonly ItemRecord[],
  options: Stage1PromptOptions,
): Stage1Prompt {
  const rendered = renderWindows(items, options);
  // A random boundary: transcript text cannot predict it, so it cannot fake the end of the data section.
  const boundary = randomBytes(6).toString("hex");
  const windows = rendered.map((window, index): Stage1Window => {
    const prompt = (previous: string | null) =>
      fillTemplate(loadPrompt("stage_one_input.md"), {
        thread_id: session.id,
        agent: session.agent,
        kind: session.kind,
        cwd: session.cwd ?? "unknown",
        started_at: toIso(session.startedAt) ?? "unknown",
        updated_at: toIso(session.updatedAt) ?? "unknown",
        window_note:
          rendered.length > 1
            ? `This is part ${index + 1} of ${rendered.length} of the session (items ${window.itemFrom} to ${window.itemTo}); it is too long for one request.`
            : "",
        omitted_note:
          window.omitted > 0
            ? `(${window.omitted} items were left out to fit the budget: tool calls and outputs first, never a user message or a compaction summary. Notes mark where; do not guess what they held.)`
            : "",
        previous_memory:
          previous === null ? "" : fillTemplate(loadPrompt("stage_one_previous.md"), { boundary, previous }),
        boundary,
        response_items_json: window.json,
      });
    return {
      prompt,
      tokens: () => window.tokens ?? tokenCount(window.json),
      entries: window.entries.filter((entry) => entry.role !== "note").length,
      omitted: window.omitted,
      itemFrom: window.itemFrom,
      itemTo: window.itemTo,
    };
  });
  return {
    // The model is told the threshold its facts are stored at, so it can put a weak one in raw_memory.
    system: fillTemplate(loadPrompt("stage_one_system.md"), {
      min_confidence: String(options.minFactConfidence ?? DEFAULT_MIN_FACT_CONFIDENCE),
    }),
    prompt: windows[0]!.prompt(null),
    windows,
    renderedTokens: () => windows.reduce((sum, window) => sum + window.tokens(), 0),
    omitted: rendered.reduce((sum, window) => sum + window.omitted, 0),
  };
}

/** One session through the model (or the offline extractor when there is none). */
export async function extractSession(options: {
  session: SessionRecord;
  items: SessionItems | readonly ItemRecord[];
  llm: LlmProvider | null;
  render: Stage1PromptOptions;
  /** The prompt built ahead from these same items (promptsAhead.ts); built here when absent. */
  prompt?: Pick<Stage1Prompt, "system" | "prompt"> & Partial<Pick<Stage1Prompt, "windows">>;
  signal?: AbortSignal;
}): Promise<ExtractionResult> {
  if (!options.llm) {
    const { items } = options;
    const extraction = extractOffline(options.session, "forward" in items ? items.forward() : items);
    return { extraction, tokensIn: 0, tokensOut: 0, warnings: [] };
  }
  const built = options.prompt ?? buildStage1Prompt(options.session, options.items, options.render);
  const windows = built.windows ?? [{ prompt: () => built.prompt }];
  let extraction: Stage1Extraction | null = null;
  // Unknown usage stays unknown (never 0): a window that reports none leaves the sum undefined.
  let tokensIn: number | undefined = 0;
  let tokensOut: number | undefined = 0;
  const warnings: string[] = [];
  for (const [index, window] of windows.entries()) {
    const label = windows.length > 1 ? `window ${index + 1}/${windows.length}: ` : "";
    const result = await options.llm.generate({
      system: built.system,
      // The first window's prompt is the one built (ahead, maybe); later ones carry the memory so far.
      prompt: index === 0 ? built.prompt : window.prompt(extraction ? previousAnswer(extraction) : null),
      jsonSchema: { name: "stage1_memory", schema: stage1Schema },
      temperature: 0,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const parsed = parseStage1(result.text);
    tokensIn = addUsage(tokensIn, result.usage.inputTokens, index);
    tokensOut = addUsage(tokensOut, result.usage.outputTokens, index);
    warnings.push(...[...result.warnings, ...parsed.warnings].map((warning) => `${label}${warning}`));
    const empty = parsed.extraction.rawMemory.length === 0 && parsed.extraction.rolloutSummary.length === 0;
    // Each answer is the memory of the session so far; an empty one keeps what the earlier windows wrote.
    if (!empty) extraction = parsed.extraction;
    else if (extraction) warnings.push(`${label}the model answered nothing; the memory of the earlier windows is kept`);
  }
  return { extraction, tokensIn, tokensOut, warnings };
}

function addUsage(sum: number | undefined, value: number | undefined, index: number): number | undefined {
  if (value === undefined) return index === 0 ? undefined : sum;
  return (index === 0 ? 0 : (sum ?? 0)) + value;
}

/** An extraction written back in the answer's own shape, as the next window's memory so far. */
function previousAnswer(extraction: Stage1Extraction): string {
  return JSON.stringify(
    {
      rollout_summary: extraction.rolloutSummary,
      rollout_slug: extraction.rolloutSlug,
      raw_memory: extraction.rawMemory,
      facts: extraction.facts,
      entities: extraction.entities,
    },
    null,
    1,
  );
}
