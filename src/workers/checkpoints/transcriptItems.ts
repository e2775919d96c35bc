import type { ItemRecord } from "../../collection/types.js";
import { isHarnessText } from "../../pipeline/phase1/offline/userTurns.js";
import type { ReadResult, SourceAdapter } from "../../sources/adapter.js";
import { claudeCodeAdapter } from "../../sources/claudeCode.js";
import { geminiAdapter } from "../../sources/gemini.js";
import { ompAdapter, piAdapter } from "../../sources/pi.js";
import type { SessionInfo } from "../../sources/types.js";

/** The agents whose hooks hand cairn a transcript path, and the adapters that read those transcripts. */
const ADAPTERS: Record<string, SourceAdapter> = {
  "claude-code": claudeCodeAdapter,
  gemini: geminiAdapter,
  pi: piAdapter,
  omp: ompAdapter,
};

/** Items kept from a transcript: the tail, which is what a checkpoint is about. */
const TAIL_ITEMS = 4000;

export interface TranscriptRead {
  session: SessionInfo;
  /** The transcript's last items, as the store would hold them (ids in order). */
  items: ItemRecord[];
  /** The user's prompts before the kept tail (counted for the prompt total, not kept). */
  droppedPrompts: number;
}

/**
 * Reads the session a hook names straight from its transcript, through the same adapter the scan uses
 * (so the items are the ones the store would hold, and their text is guarded the same way when a
 * checkpoint is written). Large files are read a window at a time and only the tail is kept. Undefined
 * when the agent has no adapter here, the file cannot be read, or it holds another session.
 */
export async function transcriptItems(
  agent: string,
  path: string,
  sessionId: string | undefined,
): Promise<TranscriptRead | undefined> {
  const adapter = ADAPTERS[agent];
  if (!adapter) return undefined;
  let session: SessionInfo | undefined;
  const items: ItemRecord[] = [];
  let droppedPrompts = 0;
  let next = 1;
  let result: ReadResult | undefined;
  do {
    result = await adapter.read({
      file: { path, agent: adapter.agent },
      window: 16 * 1024 * 1024,
      ...(result?.resume ? { resume: result.resume } : {}),
    });
    const parsed =
      result.sessions.find((candidate) => sessionId === undefined || candidate.session.id === sessionId) ??
      (result.sessions.length === 1 ? result.sessions[0] : undefined);
    if (!parsed) continue;
    session = parsed.session;
    for (const item of parsed.items) {
      items.push({
        id: next,
        sessionId: parsed.session.id,
        seq: next,
        key: item.key,
        role: item.role,
        text: item.text,
        tool: item.tool ?? null,
        callId: item.callId ?? null,
        isError: item.isError === true,
        ...(item.outcomeUnknown ? { outcomeUnknown: true } : {}),
        ts: item.ts ?? null,
        originFile: null,
        originLine: item.origin.line,
      });
      next++;
    }
    if (items.length > TAIL_ITEMS) {
      const dropped = items.splice(0, items.length - TAIL_ITEMS);
      droppedPrompts += dropped.filter((item) => item.role === "user" && !isHarnessText(item.text)).length;
    }
  } while (result.more && result.resume);
  return session ? { session, items, droppedPrompts } : undefined;
}
