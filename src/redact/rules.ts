import { aiRules } from "./rules/ai.js";
import { cliRules } from "./rules/cli.js";
import { cloudRules } from "./rules/cloud.js";
import { connectionRules } from "./rules/connections.js";
import { devServiceRules } from "./rules/devServices.js";
import { genericRules } from "./rules/generic.js";
import { hashRules } from "./rules/hashes.js";
import { keyRules } from "./rules/keys.js";
import { messagingRules } from "./rules/messaging.js";
import { proseRules } from "./rules/prose.js";
import type { SecretRule } from "./types.js";

/**
 * Every rule, most specific first. Where matches overlap, the union is redacted under the name of
 * the earliest rule, so a provider's name wins over `token-assignment` for `GITHUB_TOKEN=ghp_...`.
 *
 * Coverage follows the public rule sets of gitleaks and GitHub secret scanning for the services a
 * coding agent's user is likely to paste, plus the four patterns of Codex's `redact_secrets`
 * (sk-..., AKIA..., Bearer ..., api_key/token/secret/password assignments), each subsumed here.
 */
export const RULES: readonly SecretRule[] = [
  ...keyRules,
  ...aiRules,
  ...cloudRules,
  ...devServiceRules,
  ...messagingRules,
  ...connectionRules,
  ...hashRules,
  ...cliRules,
  ...genericRules,
  ...proseRules,
];
