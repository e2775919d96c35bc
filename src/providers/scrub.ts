import { redactText } from "../redact/redact.js";

/** `scheme://user:password@` in a URL; fetch quotes the whole URL when it refuses one with credentials. */
const URL_USER_INFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^/\s@]+@/gi;

/**
 * Removes secrets (API keys) and URL user-info from text that may end up in an error message, a log or
 * the job table. Some servers echo the key they rejected; short strings are left alone so that a
 * placeholder key like "x" does not mangle every message.
 */
export function scrubSecrets(text: string, secrets: ReadonlyArray<string | undefined>): string {
  let result = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 8) result = result.split(secret).join("[redacted]");
  }
  return result.replace(URL_USER_INFO, "$1[redacted]@");
}

/**
 * A setting or URL as it may be shown (`config list`, `doctor`, a provider's description): its secrets
 * redacted and any URL user-info replaced (`https://user:pass@host` shows as `https://[redacted]@host`).
 */
export function withoutCredentials(text: string): string {
  return scrubSecrets(redactText(text), []);
}

/** How much of a body is read for its start: far more than is shown, so no shown token was cut. */
const READ_CHARS = 64 * 1024;

/**
 * The first `limit` characters of a body on one line, for error messages. Redacted before it is cut
 * and flattened: a server's error can echo the request (`.env` lines, the key it refused), and a cut
 * token or one joined to the next line is no longer one the rules recognise.
 */
export function bodyStart(text: string, limit = 200): string {
  return redactText(text.slice(0, READ_CHARS)).replace(/\s+/g, " ").trim().slice(0, limit);
}
