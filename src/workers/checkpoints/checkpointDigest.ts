import type { CheckpointState, CheckpointTrigger } from "../../store/repositories/checkpointRepository.js";

/** What a digest is written from: a checkpoint's fields. */
export interface DigestSource {
  trigger: CheckpointTrigger;
  projectName: string | null;
  promptTotal: number;
  memoryQueries: readonly string[];
  recentRemembers: readonly string[];
  state: CheckpointState;
}

const TITLES: Record<CheckpointTrigger, string> = {
  periodic: "periodic checkpoint",
  pre_compaction: "checkpoint before compaction",
  session_end: "checkpoint at session end",
  agent: "checkpoint requested by the agent",
  explicit: "checkpoint requested by the user",
};

/**
 * A checkpoint's digest in Markdown, most useful first (what was asked, what is unfinished, what ran,
 * what changed, what memory was asked and given), so that cutting it to a budget from the end loses the
 * least. One formatter for every trigger: only the title says which (seed 004 has one per trigger, with
 * the same sections).
 */
export function formatDigest(source: DigestSource): string {
  const { state } = source;
  const lines = [
    `Session ${TITLES[source.trigger]}${source.projectName ? ` (${source.projectName})` : ""}: ${source.promptTotal} prompt${source.promptTotal === 1 ? "" : "s"} so far.`,
  ];
  if (state.focus.length > 0) {
    lines.push("Latest requests:");
    for (const request of state.focus) lines.push(`- ${request}`);
  }
  if (state.openWork) lines.push(`Unfinished: ${state.openWork}`);
  else if (state.outcome) lines.push(`Last answer: ${state.outcome}`);
  if (state.commands.length > 0) {
    lines.push("Recent commands:");
    for (const run of state.commands)
      lines.push(`- \`${run.command}\` ${run.outcome}${run.error ? `: ${run.error}` : ""}`);
  }
  if (state.files.length > 0) lines.push(`Files written: ${state.files.join(", ")}`);
  if (state.git) lines.push(`Git: ${state.git}`);
  if (source.memoryQueries.length > 0)
    lines.push(`Memory asked: ${source.memoryQueries.map((query) => `"${query}"`).join("; ")}`);
  if (source.recentRemembers.length > 0)
    lines.push(`Remembered: ${source.recentRemembers.map((text) => `"${text}"`).join("; ")}`);
  return lines.join("\n");
}

/**
 * `text` within `budget` characters: whole lines from the top, and a last line cut with an ellipsis when
 * even the first does not fit.
 */
export function fitLines(text: string, budget: number): string {
  if (text.length <= budget) return text;
  const kept: string[] = [];
  let used = 0;
  for (const line of text.split("\n")) {
    const cost = line.length + (kept.length > 0 ? 1 : 0);
    if (used + cost > budget) break;
    kept.push(line);
    used += cost;
  }
  if (kept.length > 0) return kept.join("\n");
  return `${text.slice(0, Math.max(0, budget - 1)).trimEnd()}…`;
}
