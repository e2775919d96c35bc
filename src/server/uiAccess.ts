import { randomBytes } from "node:crypto";

/** How long the code in the URL `cairn ui` prints may be exchanged (once) for a browser session. */
export const UI_CODE_TTL_MS = 120_000;
/** How long a browser session of the memory browser lasts. */
export const UI_SESSION_TTL_MS = 12 * 3600_000;
export const UI_COOKIE = "cairn_ui";
/** The header every API call of the page sends; a cross-origin page cannot send it without a CORS preflight the server never grants. */
export const UI_HEADER = "x-cairn-ui";

/**
 * The memory browser's way in when the server has a token: the token never goes into a URL, a log or
 * the page. `cairn ui` (holding the token) asks for a one-time code; the browser exchanges it for a
 * random session id in an HttpOnly, SameSite=Strict cookie that script cannot read. Kept in memory:
 * a restarted server forgets its sessions and `cairn ui` is run again.
 */
export class UiAccess {
  private readonly codes = new Map<string, number>();
  private readonly sessions = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  mintCode(): string {
    this.sweep();
    const code = randomBytes(24).toString("base64url");
    this.codes.set(code, this.now() + UI_CODE_TTL_MS);
    return code;
  }

  /** A session id for a valid, unused code; undefined otherwise. The code is spent either way. */
  redeem(code: string): string | undefined {
    const expires = this.codes.get(code);
    this.codes.delete(code);
    if (expires === undefined || expires < this.now()) return undefined;
    const session = randomBytes(32).toString("base64url");
    this.sessions.set(session, this.now() + UI_SESSION_TTL_MS);
    return session;
  }

  isSession(session: string | undefined): boolean {
    if (!session) return false;
    const expires = this.sessions.get(session);
    return expires !== undefined && expires >= this.now();
  }

  private sweep(): void {
    const now = this.now();
    for (const map of [this.codes, this.sessions]) for (const [key, expires] of map) if (expires < now) map.delete(key);
  }
}
