import type { ItemRole, SessionItem } from "./types.js";

/** An item as an adapter assembles it: optional fields may be undefined, text may be untrimmed. */
export interface ItemDraft {
  key: string;
  role: ItemRole;
  text: string;
  tool?: string | undefined;
  callId?: string | undefined;
  isError?: boolean | undefined;
  /** A tool result whose transcript shows neither success nor failure (see SessionItem.outcomeUnknown). */
  outcomeUnknown?: boolean | undefined;
  ts?: number | undefined;
}

/**
 * A session item in the one shape every adapter builds: all fields present (undefined when the
 * transcript did not say), always in this order. Code that reads items for every row of an import
 * (redaction, hashing, the insert) then meets one object layout instead of a dozen, which made those
 * reads several times slower.
 */
export function sessionItem(
  key: string,
  role: ItemRole,
  text: string,
  origin: SessionItem["origin"],
  extra: {
    tool?: string | undefined;
    callId?: string | undefined;
    isError?: boolean | undefined;
    outcomeUnknown?: boolean | undefined;
    ts?: number | undefined;
  },
): SessionItem {
  return {
    key,
    role,
    text,
    tool: extra.tool,
    callId: extra.callId,
    isError: extra.isError,
    outcomeUnknown: extra.outcomeUnknown,
    ts: extra.ts,
    origin,
  };
}

/** Appends a draft as a session item: text trimmed, empty items left out. */
export function pushItem(items: SessionItem[], draft: ItemDraft, origin: SessionItem["origin"]): void {
  const text = draft.text.trim();
  if (text.length === 0) return;
  items.push(sessionItem(draft.key, draft.role, text, origin, draft));
}
