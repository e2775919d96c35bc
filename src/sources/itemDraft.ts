import type { ItemRole, SessionItem } from "./types.js";

/** An item as an adapter assembles it: optional fields may be undefined, text may be untrimmed. */
export interface ItemDraft {
  key: string;
  role: ItemRole;
  text: string;
  tool?: string | undefined;
  callId?: string | undefined;
  isError?: boolean | undefined;
  ts?: number | undefined;
}

/**
 * Appends a draft as a session item: text trimmed, empty items left out, undefined fields omitted
 * (so stored items carry only what the transcript said).
 */
export function pushItem(items: SessionItem[], draft: ItemDraft, origin: SessionItem["origin"]): void {
  const text = draft.text.trim();
  if (text.length === 0) return;
  const item: SessionItem = { key: draft.key, role: draft.role, text, origin };
  if (draft.tool !== undefined) item.tool = draft.tool;
  if (draft.callId !== undefined) item.callId = draft.callId;
  if (draft.isError !== undefined) item.isError = draft.isError;
  if (draft.ts !== undefined) item.ts = draft.ts;
  items.push(item);
}
