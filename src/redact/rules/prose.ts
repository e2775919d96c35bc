import { isPathOrUrl, isPlaceholder, looksLikeCode, looksRandom } from "../gates.js";
import type { SecretRule } from "../types.js";
import { isNamedValue } from "./assignmentGates.js";

/**
 * The loosest contexts, tried after every other rule: XML elements named like secrets, and secrets
 * stated in chat prose.
 */
export const proseRules: SecretRule[] = [
  {
    // <password>x</password> in Maven settings, Tomcat users, FileZilla, NuGet configs. No double
    // quote inside: in JSON-serialized text it would close the string.
    name: "xml-secret-element",
    family: "generic",
    pattern:
      /<[A-Za-z0-9_.:-]{0,40}(?<=password|passwd|secret|token|apikey|api_key|api-key|passphrase|accesskey|secretkey)>([^<"\r\n]{1,512})<\//gi,
    group: 1,
    keywords: [
      "password",
      "passwd",
      "secret",
      "secretkey",
      "token",
      "apikey",
      "api_key",
      "api-key",
      "passphrase",
      "accesskey",
    ],
    after: />/,
    validate: (value, match) => isNamedValue(value.trim(), match[0].slice(0, match[0].indexOf(">"))),
  },
  {
    // .NET appSettings and similar: <add key="ApiKey" value="..." />, also JSON-escaped.
    name: "config-key-value",
    family: "generic",
    pattern:
      /key[ \t]{0,4}=[ \t]{0,4}\\?"([^"\\\r\n]{0,60}(?:password|passwd|pwd|secret|token|apikey|api_key|api-key|accesskey|connectionstring)[^"\\\r\n]{0,20})\\?"[ \t]{1,8}value[ \t]{0,4}=[ \t]{0,4}\\?"((?:[^"\\\r\n]|\\[^"\r\n]){1,512})\\?"/gi,
    group: 2,
    keywords: ["value"],
    after: /[ \t]{0,4}=[ \t]{0,4}\\?"/,
    validate: (value, match) => isNamedValue(value, match[1] ?? ""),
  },
  {
    // "my password is Tr0ub4dor&3", "the token for staging is abc123", "use the token 9fQ2kLx81mZ0",
    // "Password for ada@db.internal: Fj38#kLq!" (a prompt echoed into a transcript), "the bearer is
    // ...", "the Azure storage key is ...".
    // Prose says "the token is invalid" and "the token limit", so after "is"/"was" the value must
    // not be a plain word (letters with digits or symbols), and right after the keyword it must
    // look generated (see looksRandom). One regex for both, since the keyword scan is the cost.
    name: "secret-in-prose",
    family: "generic",
    pattern:
      /(?<![A-Za-z])(?:pass(?:word|wd|phrase)?|token|api[ _-]?key|secret(?:[ _-]key)?|(bearer|key))(?:[ \t]{1,4}for[ \t]{1,4}[A-Za-z0-9_.@/-]{1,40}(?:[ \t]{1,4}[A-Za-z0-9_.@/-]{1,40}){0,3}(:)?)?(?:[ \t]{1,4}(is|was)[ \t]{1,4}(?:now[ \t]{1,4})?(?:set[ \t]{1,4}to[ \t]{1,4})?|[ \t]{1,4})["'`]?([^\s"'`]{6,256})/gi,
    group: 4,
    keywords: ["pass", "token", "key", "secret", "bearer"],
    after: /(?:word|wd|phrase|[ _-]key)?[ \t]{1,4}(?:for[ \t]|is[ \t]|was[ \t]|["'`]?[^\s"'`]{6})/i,
    // "is"/"was", or a colon after "for ..." ("Password for ada@host: ..."), introduce the value;
    // otherwise it must look generated. (`secret: x` alone is code, left to secret-assignment.)
    // "bearer" and a lone "key" ("the storage key is ...") name no secret by themselves ("the key
    // is missing"), so their value must look generated even after "is".
    validate: (value, match) =>
      match[1] !== undefined || (match[2] === undefined && match[3] === undefined)
        ? isGenerated(value)
        : isNotAWord(value),
  },
];

/** After "is"/"was": anything but a word, a placeholder, code, a path or a URL. */
function isNotAWord(value: string): boolean {
  return (
    /[A-Za-z]/.test(value) &&
    /[\d\W_]/.test(value.replace(/[.,;:!?)]+$/, "")) &&
    !isPlaceholder(value) &&
    !looksLikeCode(value) &&
    !isPathOrUrl(value)
  );
}

/** Right after the keyword: a generated-looking string with a digit. */
function isGenerated(value: string): boolean {
  const bare = value.replace(/[.,;:!?)]+$/, "");
  return (
    /^[A-Za-z0-9_\-+/=.!@#$%^&*~]+$/.test(bare) &&
    /\d/.test(bare) &&
    looksRandom(bare, 12) &&
    !looksLikeCode(bare) &&
    !isPathOrUrl(bare)
  );
}
