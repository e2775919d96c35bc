import { isPlaceholder, looksLikeCode, looksLikeWords, looksRandom } from "../gates.js";
import { type AssignmentContext, isEnvStyle, isLoneColonValue, isTightEquals } from "./assignmentContext.js";

/**
 * Whether the value of a `name <sep> value` match is a secret, by how strongly the name promises
 * one. A password may be a plain word, a token may not.
 */

/** `PasswordInput`, `SecretString`: a type name after `password:` in code. */
const TYPE_LIKE = /^(?:[A-Z][a-z]+){2,}$/;

/** A file path; base64 may start with '/' too, but has no dots and longer segments. */
function isPathLike(value: string): boolean {
  if (/^[A-Za-z]:\\/.test(value)) return true;
  if (!/^(?:~|\.{1,2})?\/[\w.@-]*(?:\/[\w.@-]*)*$/.test(value)) return false;
  const segments = value.split("/").filter((s) => s.length > 0);
  return value.includes(".") || segments.length >= 2 || segments.every((s) => s.length < 12);
}

/** An unquoted value that is code or a type rather than a literal. */
function isCodeValue(value: string, context: AssignmentContext): boolean {
  if (context.quoted) return false;
  return looksLikeCode(value) || /^[ \t]*[(.[]/.test(context.rest) || TYPE_LIKE.test(value);
}

/**
 * Passwords and named secrets: human-chosen, so no entropy bar. Plain words only count where the
 * syntax says the word is the value (`.env`, YAML, quotes) and not a variable (`password = pw`).
 */
export function isPasswordValue(value: string, context: AssignmentContext, minLength = 4): boolean {
  if (value.length < minLength || isPlaceholder(value) || isPathLike(value)) return false;
  if (isCodeValue(value, context)) return false;
  // Quoted prose ("Enter your password") has blanks; passphrases and .env values may too.
  if (context.quoted) return !/\s/.test(value) || /phrase/i.test(context.name) || isEnvStyle(context);
  if (/^[A-Za-z_-]+$/.test(value)) return isTightEquals(context) || isLoneColonValue(context);
  return true;
}

/** Named secrets (`client_secret`, `JWT_SECRET`): like passwords, but a lone word must not be prose. */
export function isSecretValue(value: string, context: AssignmentContext): boolean {
  if (!isPasswordValue(value, context, 6)) return false;
  if (isEnvStyle(context)) return true;
  return looksRandom(value, 8) || !looksLikeWords(value);
}

/** Tokens and keys are generated: they must look random (see looksRandom). */
export function isTokenValue(value: string, context: AssignmentContext, minLength = 8): boolean {
  return !isCodeValue(value, context) && !isPathLike(value) && looksRandom(value, minLength);
}

/** The name ends in a word "key", not in "monkey": after a separator or a camelCase hump. */
const KEY_WORD_END = /(?:[_.-]key|[a-z0-9]Key|[_.-]KEY|^api_?key|^API_?KEY)$/;
const NOT_SECRET_KEY =
  /(?:public|primary|foreign|sort|partition|cache|idempotency|dedupe?|lookup|index|hash|unique|row|shard|routing|object|bucket|file|path|translation|i18n|message|label|query|map|group|event|item|list|node|entry|field|column|table|hot|short|shortcut|keyboard|storage|state|store|local|session|react|render|component|prop|dict|sign|kid|registry|header|env|config|option|setting|flag|feature|metadata|meta|context)[_.-]?key$/i;
const STRONG_KEY_NAME =
  /(?:api|access|secret|private|client|app|auth|master|encryption|signing|license|subscription|account|service|admin|write|deploy|ingest|consumer|webhook|server|project|org|user|personal|dev|prod|live|openai|anthropic|stripe|google|azure|aws|gcp)[_.-]?key$/i;

/**
 * `*_KEY`, `*Key`, `*-key` names: strong ones (`apiKey`, `SECRET_KEY`) need a random value,
 * others (`SIGNING_SALT_KEY`) a longer one in a key alphabet; names that are known not to hold
 * secrets (`primaryKey`, `cacheKey`) and the bare name `key` are never redacted.
 */
export function isKeyValue(value: string, context: AssignmentContext): boolean {
  // Rails names its master secret SECRET_KEY_BASE.
  const name = context.name.replace(/^[^A-Za-z0-9]+/, "").replace(/_base$/i, "");
  // A bare `KEY=...` in a .env file is a key; `key: ...` in code is a map entry.
  if (name === "KEY" && isEnvStyle(context)) return isTokenValue(value, context, 16);
  if (!KEY_WORD_END.test(name) || NOT_SECRET_KEY.test(name)) return false;
  if (STRONG_KEY_NAME.test(name)) return isTokenValue(value, context, 8);
  return /^[A-Za-z0-9+/=_-]+$/.test(value) && isTokenValue(value, context, 16);
}

const PASSWORD_WORD = /pass|pwd|secret|credential/i;

/** A value named by a flag or tag (`--token x`, `<password>x</password>`): no syntax to go on. */
export function isNamedValue(value: string, name: string): boolean {
  if (isPlaceholder(value) || looksLikeCode(value)) return false;
  return PASSWORD_WORD.test(name) ? value.length >= 4 : looksRandom(value, 8);
}
