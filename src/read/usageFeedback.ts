import { summaryFileName } from "../pipeline/phase2/artifacts.js";
import type { Storage } from "../store/storage.js";
import { withWriteTx } from "../store/tx.js";
import { parseCitations } from "./citations.js";

const CURSOR_KEY = "citations.lastItemId";

/**
 * Turns citations in newly imported assistant messages into usage of the cited stage-1 outputs, so
 * phase 2 ranks memory that agents actually used higher. A cursor over item ids makes each message
 * count once, however often its file is re-read.
 */
export function applyCitationUsage(storage: Storage, now: number): { messages: number; outputs: number } {
  const after = storage.meta.get<number>(CURSOR_KEY) ?? 0;
  const last = storage.items.lastId();
  const items = storage.items.assistantItemsContaining("<memory-citations>", after);
  let outputs = 0;
  withWriteTx(storage.db, () => {
    if (items.length > 0) {
      const byFile = new Map(storage.stage1.all().map((output) => [summaryFileName(output), output.sessionId]));
      for (const item of items) {
        const citations = parseCitations(item.text);
        const ids = new Set(citations.sessionIds);
        for (const file of citations.summaryFiles) {
          const id = byFile.get(file);
          if (id) ids.add(id);
        }
        if (ids.size > 0) outputs += storage.stage1.recordUsage([...ids], item.ts ?? now);
      }
    }
    if (last > after) storage.meta.set(CURSOR_KEY, last);
  });
  return { messages: items.length, outputs };
}
