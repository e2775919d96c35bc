/**
 * Finds the citation blocks agents were asked to end memory-based answers with, and what they cite:
 * rollout summary files, session ids and remembered memories (`memory #42`, as injection lists them).
 * MEMORY.md and memory_summary.md citations say memory was used, but not which session's knowledge,
 * so they do not count toward any session's usage.
 */
export interface Citations {
  summaryFiles: string[];
  sessionIds: string[];
  memoryIds: number[];
}

const BLOCK = /<memory-citations>([\s\S]*?)<\/memory-citations>/g;
const SUMMARY_FILE = /rollout_summaries\/([A-Za-z0-9._-]+\.md)/g;
const SESSION = /\bsession(?:_id)?:\s*([A-Za-z0-9._:-]{6,})/gi;
const MEMORY = /\bmemory\s+#(\d{1,15})\b/gi;

export function parseCitations(text: string): Citations {
  const summaryFiles = new Set<string>();
  const sessionIds = new Set<string>();
  const memoryIds = new Set<number>();
  for (const block of text.matchAll(BLOCK)) {
    const body = block[1] ?? "";
    for (const match of body.matchAll(SUMMARY_FILE)) summaryFiles.add(match[1]!);
    for (const match of body.matchAll(SESSION)) sessionIds.add(match[1]!);
    for (const match of body.matchAll(MEMORY)) memoryIds.add(Number(match[1]));
  }
  return { summaryFiles: [...summaryFiles], sessionIds: [...sessionIds], memoryIds: [...memoryIds] };
}
