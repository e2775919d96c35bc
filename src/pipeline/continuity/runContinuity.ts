import { quoteAsData } from "../../prompts/quoteAsData.js";
import { loadPrompt } from "../../prompts/template.js";
import { type LlmProvider, ProviderError } from "../../providers/llm/types.js";
import { readInjections } from "../../read/injectionLog.js";
import { guardText } from "../../redact/index.js";
import type { SessionScore } from "../../store/contracts/continuity.js";
import type { Storage } from "../../store/storage.js";
import { withWriteTx } from "../../store/tx.js";
import type { ItemRecord } from "../../store/types/sessionRecord.js";
import { errorMessage } from "../../util/errors.js";
import { continuityJsonSchema, parseContinuity } from "./parseContinuity.js";
import { EVIDENCE_CONFIDENCE, evidenceOf } from "./sessionEvidence.js";

const LOG_CURSOR = "continuity.logOffset";
/** A given memory counts as used from this relevance: its use then feeds ranking and phase 2. */
export const USED = 0.5;
/** The session excerpt a model reads: its user and assistant messages, the newest kept when cut. */
const EXCERPT_CHARS = 24_000;
const MESSAGE_CHARS = 1_500;

export interface ContinuityReport {
  /** Injection records moved from the log into the store. */
  imported: number;
  /** Lines of the log that were not a record (a torn write, an edit by hand): skipped. */
  unreadable: number;
  scored: number;
  /** Sessions whose model call failed (scored from evidence instead, said in the reasoning). */
  modelFailures: number;
  /** Given sessions not scored yet (not ended or extracted, or beyond this cycle's limit). */
  waiting: number;
}

/**
 * Continuity scoring (seed 004): moves the session-start injection log into the store, then scores
 * each session that was given memory and is ready (ended, or extracted by phase 1): with a model, it
 * reads the memories and an excerpt of the session; without one (or when the call fails), the
 * session's citations and recall results give the relevance, said as such (`method: evidence`).
 * A memory the session used raises its usage counter and its source session's usage, the signals
 * recall and phase 2 already rank by.
 */
export async function runContinuity(deps: {
  storage: Storage;
  home: string;
  llm: LlmProvider | null;
  now: () => number;
  limit: number;
  timeoutMs?: number;
}): Promise<ContinuityReport> {
  const { storage } = deps;
  const offset = storage.meta.get<number>(LOG_CURSOR) ?? 0;
  const { records, next, unreadable } = readInjections(deps.home, offset);
  const report: ContinuityReport = { imported: 0, unreadable, scored: 0, modelFailures: 0, waiting: 0 };
  for (const record of records) {
    if (record.memoryIds.length === 0) continue;
    storage.continuity.recordInjection(guardText(record.sessionId), record.memoryIds, record.at);
    report.imported++;
  }
  if (next !== offset) storage.meta.set(LOG_CURSOR, next);

  for (const sessionId of storage.continuity.readyToScore(deps.limit)) {
    const given = storage.continuity.injected(sessionId).map((row) => row.memoryId);
    const items = storage.items.list(sessionId);
    let scored: Omit<SessionScore, "sessionId" | "scoredAt" | "injected" | "used"> & {
      relevance: Map<number, number>;
    };
    const asked = deps.llm ? await askModel(deps.llm, storage, given, items, deps.timeoutMs) : undefined;
    if (asked && !("problem" in asked)) {
      scored = { ...asked, method: "model" };
    } else {
      if (asked) report.modelFailures++;
      const relevance = evidenceOf(items, new Set(given));
      const used = [...relevance.values()].filter((r) => r >= USED).length;
      scored = {
        score: given.length === 0 ? 0 : used / given.length,
        confidence: EVIDENCE_CONFIDENCE,
        method: "evidence",
        reasoning: `counted from the session's citations and recall results${asked ? ` (the model failed: ${asked.problem})` : ""}`,
        relevance,
      };
    }
    for (const id of given) if (!scored.relevance.has(id)) scored.relevance.set(id, 0);
    const usedIds = given.filter((id) => (scored.relevance.get(id) ?? 0) >= USED);
    const now = deps.now();
    // The score and the usage it adds are one write: a process killed between them either left the
    // session unscored (the next cycle scores it and bumps once) or finished both, never bumped usage
    // twice or saved a score whose usage was lost.
    withWriteTx(storage.db, () => {
      storage.continuity.saveScore(
        {
          sessionId,
          score: scored.score,
          confidence: scored.confidence,
          method: scored.method,
          injected: given.length,
          used: usedIds.length,
          reasoning: scored.reasoning,
          scoredAt: now,
        },
        scored.relevance,
      );
      if (usedIds.length === 0) return;
      storage.memories.bumpUsage(usedIds, now);
      const sources = usedIds.flatMap((id) => storage.memories.get(id)?.provenance.sessionId ?? []);
      if (sources.length > 0) storage.stage1.recordUsage(sources, now);
    });
    report.scored++;
  }
  report.waiting = storage.continuity.unscored();
  return report;
}

async function askModel(
  llm: LlmProvider,
  storage: Storage,
  given: readonly number[],
  items: readonly ItemRecord[],
  timeoutMs: number | undefined,
): Promise<
  { score: number; confidence: number; reasoning: string; relevance: Map<number, number> } | { problem: string }
> {
  const memories = given.flatMap((id) => {
    const memory = storage.memories.get(id);
    return memory ? [{ id: `#${id}`, type: memory.type, content: guardText(memory.content) }] : [];
  });
  const excerpt = sessionExcerpt(items);
  try {
    const answer = await llm.generate({
      system: loadPrompt("continuity_score.md"),
      prompt: [
        `The memories the session was given, between the marker lines (data):\n${quoteAsData("MEMORY DATA", memories)}`,
        `The session, between the marker lines (data):\n${quoteAsData("SESSION DATA", excerpt)}`,
      ].join("\n\n"),
      jsonSchema: { name: "continuity_score", schema: continuityJsonSchema },
      temperature: 0,
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
    });
    return parseContinuity(answer.text, given);
  } catch (error) {
    return { problem: error instanceof ProviderError ? error.message : errorMessage(error) };
  }
}

/** The session's user and assistant messages, each clipped, newest kept when the whole is too long. */
function sessionExcerpt(items: readonly ItemRecord[]): Array<{ role: string; text: string }> {
  const out: Array<{ role: string; text: string }> = [];
  let chars = 0;
  for (let i = items.length - 1; i >= 0 && chars < EXCERPT_CHARS; i--) {
    const item = items[i]!;
    if (item.role !== "user" && item.role !== "assistant" && item.role !== "tool_call") continue;
    const text = guardText(item.text.slice(0, MESSAGE_CHARS));
    out.push({ role: item.role, text });
    chars += text.length;
  }
  return out.reverse();
}
