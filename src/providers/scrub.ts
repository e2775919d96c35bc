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

/** The first `limit` characters of a body on one line, for error messages. */
export function bodyStart(text: string, limit = 200): string {
  return text.replace(/\s+/g, " ").trim().slice(0, limit);
}
