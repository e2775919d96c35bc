export { mapStringsDeep, redactDeep } from "./deep.js";
export { shannonEntropy } from "./entropy.js";
export { guardDeep, guardItem, guardOptional, guardText, stripUrlCredentials } from "./guard.js";
export { PRIVATE_MARKER, stripPrivate } from "./privateBlocks.js";
export { marker, redact, redactText } from "./redact.js";
export { RULES } from "./rules.js";
export type { Finding, RedactResult, SecretRule } from "./types.js";
