export { redactDeep } from "./deep.js";
export { shannonEntropy } from "./entropy.js";
export { marker, redact, redactText } from "./redact.js";
export { RULES } from "./rules.js";
export type { Finding, RedactResult, SecretRule } from "./types.js";
