import { isHighEntropy } from "./entropy.js";

/**
 * Value checks shared by the context rules (`password = ...`, `token: ...`). A keyword tells us a
 * secret may follow; these decide whether what follows is one, or a placeholder, a reference to a
 * variable, a type annotation or prose.
 */

const PLACEHOLDER_WORDS =
  /^(?:null|nil|none|undefined|true|false|yes|no|on|off|empty|string|str|text|number|int|integer|bool|boolean|any|unknown|object|bytes|buffer|optional|required|secret|secrets|password|passwd|pass|token|tokens|key|apikey|api_key|changeme|change_me|changeit|test|testing|todo|tbd|n\/a|na|env|default|value|hidden|masked|omitted|redacted|\.\.\.)$/i;

const PLACEHOLDER_PARTS =
  /example|placeholder|dummy|redacted|changeme|your[_ -]?(?:own[_ -]?)?(?:api|secret|token|key|password|pass|access)|_here$/i;

const TEMPLATE =
  /x{4,}|X{4,}|\*{3,}|\u2022{3,}|\.{3}|^<.*>$|\$\{|\{\{|\{%|<%|^\$[A-Za-z_(]|^%[(\w]*\)?[sd]$|^%[A-Z_]+%$|\[REDACTED/;

/** A template or mask standing where a secret goes: `${TOKEN}`, `{{ pw }}`, `<password>`, `****`. */
export function isTemplate(value: string): boolean {
  return value.trim().length === 0 || TEMPLATE.test(value);
}

/** A template, or a word that names a secret instead of being one: `null`, `string`, `changeme`. */
export function isPlaceholder(value: string): boolean {
  return isTemplate(value) || PLACEHOLDER_WORDS.test(value) || PLACEHOLDER_PARTS.test(value);
}

const MEMBER_CHAIN = /^[A-Za-z_$][\w$]*(?:(?:\.|\?\.|::|->)[A-Za-z_$][\w$]*)+$/;

/** An unquoted value that is code: `process.env.X`, `getToken()`, `[a, b]`, `!vault`, `&anchor`. */
export function looksLikeCode(value: string): boolean {
  return /^[$%{([!*&@=<>|\\]/.test(value) || value.includes("(") || MEMBER_CHAIN.test(value);
}

/**
 * Words joined as an identifier (`hello_world`, `parseTokenValue`, `HTMLParserError`), which random
 * strings are not: every part is a run of letters with a vowel (or a short acronym) and parts
 * average three letters or more. Random letters split at case changes give parts of about two.
 */
export function looksLikeWords(value: string): boolean {
  const parts = value
    .split(/[^A-Za-z0-9]+|(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/)
    .filter((part) => part.length > 0);
  if (parts.length === 0) return false;
  // Short parts without a vowel are acronyms or single letters: `x-hono-ssg`, `HTMLParser`.
  const wordLike = (part: string) => /^[A-Za-z]+$/.test(part) && (/[aeiouy]/i.test(part) || part.length <= 4);
  if (!parts.every(wordLike)) return false;
  const letters = parts.reduce((sum, part) => sum + part.length, 0);
  return letters / parts.length >= 3;
}

/** The entropy bar for hex strings: random 16-digit hex averages 3.4 and dips below 3.0. */
const HEX_ENTROPY_BASE = 2.5;

/** A file path or a URL: `/etc/x`, `~/.ssh/id_rsa`, `C:\\x`, `https://...`. */
export function isPathOrUrl(value: string): boolean {
  return /^(?:~|\.{0,2})\/|^[A-Za-z]:\\|:\/\//.test(value);
}

/**
 * A generated credential rather than a word: long enough, no whitespace, above the entropy
 * threshold, and either mixing letters and digits or (with no digit, which random strings of 16+
 * characters rarely lack) not made of words.
 */
export function looksRandom(value: string, minLength = 8): boolean {
  if (value.length < minLength || /\s/.test(value) || isPlaceholder(value)) return false;
  // Hex has 16 symbols, so the same randomness scores lower than in base62 (at most 4 bits).
  if (!isHighEntropy(value, /^[0-9a-f]+$/i.test(value) ? HEX_ENTROPY_BASE : undefined)) return false;
  const hasDigit = /\d/.test(value);
  const hasLetter = /[A-Za-z]/.test(value);
  if (hasDigit && hasLetter) return true;
  if (!hasLetter) return false;
  return value.length >= 16 && !looksLikeWords(value);
}

/**
 * A token with a digit that is not words joined (`xoxb-2231...-QwEr...`, not `hf_AutoModelForCausalLM`):
 * what a provider generates. For tokens whose prefix is glued to a word, where an identifier that
 * happens to start with the prefix is as likely as a token.
 */
export function looksGenerated(token: string): boolean {
  return /\d/.test(token) && !looksLikeWords(token);
}

/**
 * A value that, standing alone with no name around it, is still a credential: a search term such as
 * `Vu7nQ2zLx9pR4wKt`, `Tr0ub4dor&3xQz` or a 40-digit hex key. Digits set between letters two times
 * or more (`r0u`, `b4d`) mark a generated or leet-spelled secret; names people search for have at
 * most one (`IPv6Address`, `utf8mb4_unicode_ci`, `e2e-tests`, `X509Certificate2`).
 */
export function looksLikeBareSecret(value: string): boolean {
  if (value.length < 10 || /\s/.test(value) || isPathOrUrl(value)) return false;
  const tucked = value.match(/[A-Za-z]\d(?=[A-Za-z])/g)?.length ?? 0;
  return tucked >= 2 && looksRandom(value, 10);
}

/** True for base64 that decodes to printable `user:password`, as in Basic auth and docker's "auth". */
export function isEncodedCredentialPair(value: string): boolean {
  if (value.length < 8 || value.length % 4 === 1) return false;
  const decoded = Buffer.from(value, "base64").toString("latin1");
  const colon = decoded.indexOf(":");
  return colon > 0 && colon < decoded.length - 1 && /^[\x20-\x7e]+$/.test(decoded);
}

/** The identifier that ends at `end` in `text` (scanning back over name characters). */
export function nameEndingAt(text: string, end: number): string {
  let start = end;
  while (start > 0 && /[A-Za-z0-9_.\-$]/.test(text.charAt(start - 1)) && end - start < 80) start--;
  // An identifier starts with a letter: "12-DB_PASSWORD" is line 12 of `rg -C` output.
  return text.slice(start, end).replace(/^[^A-Za-z_$]+/, "");
}
