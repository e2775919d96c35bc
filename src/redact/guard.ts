import { mapStringsDeep } from "./deep.js";
import { PRIVATE_OPEN_MARKER, stripPrivate, stripPrivateFrom } from "./privateBlocks.js";
import { redactText } from "./redact.js";

/**
 * The one guard at the store's doors: every repository write method passes text a user or a model
 * supplied through it, so no caller (CLI, library, HTTP, MCP, a transcript, a model answer) can store
 * a secret or a `<private>` block by forgetting to. Idempotent: markers are never matched again.
 */
export function guardText(text: string): string {
  return redactText(stripPrivate(text));
}

/** `guardText` for optional columns. */
export function guardOptional<T extends string | null | undefined>(text: T): T {
  return (typeof text === "string" ? guardText(text) : text) as T;
}

/** A copy of a JSON-like value with every string (and key) guarded. */
export function guardDeep<T>(value: T): T {
  return mapStringsDeep(value, guardText);
}

/** Items guarded ahead of their write (outside the import lanes' write turn), so the write skips them. */
const guardedItems = new WeakSet<object>();

/**
 * Guards an item's text in place, once: the import reads and guards items before hashing them and
 * before its turn at the store, and the items repository's write then finds them already done (the
 * import's hot path redacts each item once). Text changed after guarding must be guarded again.
 */
export function guardItem<T extends { text: string }>(item: T): T {
  if (guardedItems.has(item)) return item;
  item.text = guardText(item.text);
  guardedItems.add(item);
  return item;
}

/**
 * Guards a session's items in order (`guardItem` for each), carrying a `<private>` block the user left
 * open at the end of a message into their next messages, text blocks of one message included, until
 * `</private>`: what precedes it there is private too. `open` says whether the session's last stored
 * user message left one open (see `endsInsidePrivate`). Returns whether one is open after the items.
 */
export function guardTurns<T extends { text: string; role: string }>(items: readonly T[], open = false): boolean {
  for (const item of items) {
    if (item.role !== "user") {
      guardItem(item);
      continue;
    }
    if (guardedItems.has(item)) {
      open = endsInsidePrivate(item.text);
      continue;
    }
    const stripped = stripPrivateFrom(item.text, open);
    open = stripped.open;
    item.text = redactText(stripped.text);
    guardedItems.add(item);
  }
  return open;
}

/** Whether a stored (guarded) user message ended inside a `<private>` block its next message may close. */
export function endsInsidePrivate(text: string | null | undefined): boolean {
  return typeof text === "string" && text.endsWith(PRIVATE_OPEN_MARKER);
}

/**
 * A remote URL without credentials: `https://x-access-token:ghp_...@github.com/o/r` keeps only
 * `https://github.com/o/r`. A username alone is kept for ssh (`ssh://git@host/...` names an account,
 * not a secret); anything else in the userinfo of a URL is a credential (a token is often the user).
 */
export function stripUrlCredentials(url: string): string {
  // Every string of a resume state passes here; one without "@" holds no userinfo.
  if (!url.includes("@")) return url;
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)([^@/?#\s]*)@/i, (whole, scheme: string, userinfo: string) => {
    const ssh = /^(?:ssh|git\+ssh|ssh\+git):\/\/$/i.test(scheme);
    return ssh && !userinfo.includes(":") ? whole : scheme;
  });
}
