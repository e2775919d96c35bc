import { isPlaceholder, looksLikeCode, looksRandom } from "../gates.js";
import type { SecretRule } from "../types.js";
import { isNamedValue } from "./assignmentGates.js";

/**
 * The loosest contexts, tried after every other rule: XML elements named like secrets, and secrets
 * stated in chat prose.
 */
export const proseRules: SecretRule[] = [
  {
    // <password>x</password> in Maven settings, Tomcat users, FileZilla, NuGet configs.
    name: "xml-secret-element",
    family: "generic",
    pattern:
      /<[A-Za-z0-9_.:-]{0,40}(?<=password|passwd|secret|token|apikey|api_key|api-key|passphrase|accesskey|secretkey)>([^<\r\n]{1,512})<\//gi,
    group: 1,
    keywords: ["password", "passwd", "secret", "token", "apikey", "api_key", "api-key", "passphrase", "accesskey"],
    validate: (value, match) => isNamedValue(value.trim(), match[0].slice(0, match[0].indexOf(">"))),
  },
  {
    // "my password is Tr0ub4dor&3", "the token for staging is abc123...": only values that
    // cannot be a word (letters with digits or symbols), since prose says "the token is invalid".
    name: "secret-in-prose",
    family: "generic",
    pattern:
      /(?<![A-Za-z])(password|passwd|passphrase|token|api[ _-]?key|secret(?:[ _-]key)?)(?:[ \t]{1,4}for[ \t]{1,4}[A-Za-z0-9_.@/-]{1,40}(?:[ \t]{1,4}[A-Za-z0-9_.@/-]{1,40}){0,3})?[ \t]{1,4}(?:is|was)[ \t]{1,4}(?:now[ \t]{1,4})?(?:set[ \t]{1,4}to[ \t]{1,4})?["'`]?([^\s"'`]{6,256})/gi,
    group: 2,
    keywords: ["password", "passwd", "passphrase", "token", "key", "secret"],
    validate: (value) =>
      /[A-Za-z]/.test(value) &&
      /[\d\W_]/.test(value.replace(/[.,;:!?)]+$/, "")) &&
      !isPlaceholder(value) &&
      !looksLikeCode(value) &&
      !/^(?:~|\.{0,2})\/|:\/\//.test(value),
  },
  {
    // "use the token 9fQ2kLx81mZ0pA", "password Hx83!kq0Pz1w": the value right after the word, only
    // when it looks generated (see looksRandom), since prose says "the token limit".
    name: "secret-in-prose",
    family: "generic",
    pattern:
      /(?<![A-Za-z])(?:password|passphrase|token|api[ _-]?key|secret)[ \t]{1,4}["'`]?([A-Za-z0-9_\-+/=.!@#$%^&*~]{12,256})/gi,
    group: 1,
    keywords: ["password", "passphrase", "token", "key", "secret"],
    validate: (value) => looksRandom(value.replace(/[.,;:!?]+$/, ""), 12) && /\d/.test(value) && !looksLikeCode(value),
  },
];
