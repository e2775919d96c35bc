import type { SecretRule } from "../types.js";
import { assignmentContext } from "./assignmentContext.js";
import { isKeyValue, isNamedValue, isPasswordValue, isSecretValue, isTokenValue } from "./assignmentGates.js";
import { ASSIGN, LINE_PREFIX, TYPED_ASSIGN, VALUE } from "./fragments.js";

/**
 * `name <sep> value` in code, .env, YAML, JSON, TOML, INI, query strings and headers, where the name
 * ends with a secret-bearing word. The keyword must end the name (`token_count = 5` is not a token),
 * and the gates in assignmentGates.ts judge the value.
 */
function assignmentPattern(keywords: string): RegExp {
  return new RegExp(`(${keywords})${NAME_ENDS}${VALUE}`, "gi");
}

/** The name's end and the separator: what follows the keyword in every match of an assignment. */
const NAME_ENDS = String.raw`(?![A-Za-z0-9_.-])(?:\\?["'])?\]?(?:${TYPED_ASSIGN}|${ASSIGN})`;

/** The screen's `after` of an assignment rule: `rest` is what may sit between keyword and name end. */
function assignmentAfter(rest = ""): RegExp {
  return new RegExp(rest + NAME_ENDS, "i");
}

const VALUE_GROUPS = [2, 3, 4, 5] as const;

export const genericRules: SecretRule[] = [
  {
    name: "password-assignment",
    family: "generic",
    pattern: assignmentPattern("password|passwd|passphrase|pwd|(?<![A-Za-z])pass"),
    group: VALUE_GROUPS,
    keywords: ["pass", "pwd"],
    after: assignmentAfter("(?:word|wd|phrase)?"),
    validate: (value, match) => isPasswordValue(value, assignmentContext(match, 2)),
  },
  {
    name: "secret-assignment",
    family: "generic",
    pattern: assignmentPattern("secret|credentials?"),
    group: VALUE_GROUPS,
    keywords: ["secret", "credential"],
    after: assignmentAfter("s?"),
    validate: (value, match) => isSecretValue(value, assignmentContext(match, 2)),
  },
  {
    name: "token-assignment",
    family: "generic",
    pattern: assignmentPattern("token"),
    group: VALUE_GROUPS,
    keywords: ["token"],
    after: assignmentAfter(),
    validate: (value, match) => isTokenValue(value, assignmentContext(match, 2)),
  },
  {
    name: "key-assignment",
    family: "generic",
    pattern: assignmentPattern("key(?:_base)?"),
    group: VALUE_GROUPS,
    keywords: ["key"],
    after: assignmentAfter("(?:_base)?"),
    validate: (value, match) => isKeyValue(value, assignmentContext(match, 2)),
  },
  {
    // A YAML block scalar: `password: |` (or `>-`, `|2`, ...) with the value on the next, indented,
    // line. The first line of the value is redacted (a key block's body is left to private-key).
    name: "yaml-block-secret",
    family: "generic",
    pattern: new RegExp(
      String.raw`(password|passwd|passphrase|pwd|secret|credentials?|token|(?:api|access|secret|private|client|auth|master|signing)[_-]?key|apikey)(?![A-Za-z0-9_.-])["']?[ \t]{0,4}:[ \t]{1,4}[|>][1-9+-]{0,2}[ \t]{0,8}(?:#[^\r\n"]{0,128})?(?:\r?\n${LINE_PREFIX}[ \t]{0,64}){0,4}?\r?\n${LINE_PREFIX}[ \t]{1,64}([^\s"#][^\r\n"]{0,511})`,
      "gi",
    ),
    group: 2,
    keywords: ["pass", "pwd", "secret", "credential", "token", "key"],
    after: /[a-z_-]{0,12}["']?[ \t]{0,4}:[ \t]{1,4}[|>]/i,
    validate: (value, match) => isNamedValue(value.trim(), match[1] ?? ""),
  },
  {
    // PHP constants, as in wp-config.php: define('DB_PASSWORD', '...'), define('AUTH_KEY', '...').
    // WordPress ships 'put your unique phrase here' and 'password_here' as placeholders.
    name: "php-define-secret",
    family: "generic",
    pattern:
      /define\([ \t]{0,4}\\?["']([A-Za-z0-9_]{0,64}(?:PASSWORD|PASS|PWD|SECRET|KEY|TOKEN|SALT)[A-Za-z0-9_]{0,16})\\?["'][ \t]{0,4},[ \t]{0,4}(?:\\?"((?:[^"\\\r\n]|\\[^"\r\n]){1,512})\\?"|'([^'"\r\n]{1,512})')/gi,
    group: [2, 3],
    keywords: ["define("],
    validate: (value, match) => !/unique phrase/i.test(value) && isNamedValue(value, match[1] ?? ""),
  },
  {
    // API key headers other than Authorization: X-API-Key, X-Auth-Key (Cloudflare), X-Auth-Token,
    // PRIVATE-TOKEN (GitLab), Ocp-Apim-Subscription-Key, in curl -H, HTTP dumps and JSON. After the
    // assignment rules, which name `x-api-key: ...` in YAML first.
    name: "api-key-header",
    family: "generic",
    pattern: new RegExp(
      String.raw`:(?<=(?<![A-Za-z0-9_])(x-[A-Za-z0-9-]{0,40}(?:key|token|secret)|api-key|apikey|private-token|ocp-apim-subscription-key)(?:\\?["'])?[ \t]{0,4}:)[ \t]{0,4}${VALUE}`,
      "gi",
    ),
    group: [2, 3, 4, 5],
    keywords: ["x-", "api-key", "apikey", "private-token", "ocp-apim"],
    validate: (value, match) => isNamedValue(value, match[1] ?? "") && !/^[A-Za-z]+$/.test(value),
  },
];
