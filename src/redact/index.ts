export { mapStringsDeep, redactDeep } from "./deep.js";
export { shannonEntropy } from "./entropy.js";
export {
  endsInsidePrivate,
  guardDeep,
  guardItem,
  guardOptional,
  guardText,
  guardTurns,
  stripUrlCredentials,
} from "./guard.js";
export { PRIVATE_MARKER, PRIVATE_OPEN_MARKER, stripPrivate, stripPrivateFrom } from "./privateBlocks.js";
export { marker, redact, redactText } from "./redact.js";
export { RULES } from "./rules.js";
export type { Finding, RedactResult, SecretRule } from "./types.js";
