import type { SessionInfo, SessionItem } from "../sources/types.js";

/**
 * cairn's own model runs (an agent CLI used as the extractor or the consolidator) write transcripts
 * like any other session. Their first user message carries the data markers of cairn's prompt
 * templates; such sessions are `internal`, so cairn never learns from its own prompts.
 */
const MARKERS = ["<<<SESSION DATA ", "<<<MEMORY DATA ", "You are consolidating the memory of a coding agent's user."];

export function markInternal(info: SessionInfo, items: readonly SessionItem[]): SessionInfo {
  if (info.kind === "internal" || info.kind === "subagent") return info;
  const first = items.find((item) => item.role === "user");
  if (!first || !MARKERS.some((marker) => first.text.includes(marker))) return info;
  return { ...info, kind: "internal" };
}
