import type { SecretRule } from "../types.js";
import { assignmentContext } from "./assignmentContext.js";
import { isKeyValue, isPasswordValue, isSecretValue, isTokenValue } from "./assignmentGates.js";
import { ASSIGN, TYPED_ASSIGN, VALUE } from "./fragments.js";

/**
 * `name <sep> value` in code, .env, YAML, JSON, TOML, INI, query strings and headers, where the name
 * ends with a secret-bearing word. The keyword must end the name (`token_count = 5` is not a token),
 * and the gates in assignmentGates.ts judge the value.
 */
function assignmentPattern(keywords: string): RegExp {
  return new RegExp(
    String.raw`(${keywords})(?![A-Za-z0-9_.-])(?:\\?["'])?\]?(?:${TYPED_ASSIGN}|${ASSIGN})${VALUE}`,
    "gi",
  );
}

const VALUE_GROUPS = [2, 3, 4, 5] as const;

export const genericRules: SecretRule[] = [
  {
    name: "password-assignment",
    family: "generic",
    pattern: assignmentPattern("password|passwd|passphrase|pwd|(?<![A-Za-z])pass"),
    group: VALUE_GROUPS,
    keywords: ["pass", "pwd"],
    validate: (value, match) => isPasswordValue(value, assignmentContext(match, 2)),
  },
  {
    name: "secret-assignment",
    family: "generic",
    pattern: assignmentPattern("secret|credentials?"),
    group: VALUE_GROUPS,
    keywords: ["secret", "credential"],
    validate: (value, match) => isSecretValue(value, assignmentContext(match, 2)),
  },
  {
    name: "token-assignment",
    family: "generic",
    pattern: assignmentPattern("token"),
    group: VALUE_GROUPS,
    keywords: ["token"],
    validate: (value, match) => isTokenValue(value, assignmentContext(match, 2)),
  },
  {
    name: "key-assignment",
    family: "generic",
    pattern: assignmentPattern("key(?:_base)?"),
    group: VALUE_GROUPS,
    keywords: ["key"],
    validate: (value, match) => isKeyValue(value, assignmentContext(match, 2)),
  },
];
