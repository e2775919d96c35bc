import { isPlaceholder, looksLikeCode } from "../gates.js";
import type { SecretRule } from "../types.js";
import { isNamedValue } from "./assignmentGates.js";
import { VALUE } from "./fragments.js";

/** Secrets passed on command lines, in .netrc and in SQL. */
export const cliRules: SecretRule[] = [
  {
    // `--password x`, `--api-key=x`, `--db-password "x"`. The single-letter `-p` is left alone: it
    // means port, parents, profile or print as often as password.
    name: "cli-secret-flag",
    family: "cli",
    pattern: new RegExp(
      String.raw`(?<![A-Za-z0-9_-])--((?:[A-Za-z0-9]+-){0,4}(?:password|passwd|passphrase|pass|pwd|secret|token|api-?key|apikey|access-?key|secret-?key|private-?key|client-?secret|auth-?token|credentials?))(?:=|[ \t]{1,4})${VALUE}`,
      "gi",
    ),
    group: [2, 3, 4, 5],
    keywords: ["--"],
    validate: (value, match) => !value.startsWith("-") && isNamedValue(value, match[1] ?? ""),
  },
  {
    name: "sshpass-password",
    family: "cli",
    pattern: new RegExp(String.raw`sshpass[ \t]{1,4}-p[ \t]{0,4}${VALUE}`, "g"),
    group: [1, 2, 3, 4],
    keywords: ["sshpass"],
    validate: (value) => !isPlaceholder(value) && !looksLikeCode(value),
  },
  {
    // curl/wget/httpie `-u user:password`; numeric pairs are docker's `-u 1000:1000`.
    name: "cli-user-password",
    family: "cli",
    pattern: /(?<![A-Za-z0-9_-])(?:-u|--user)(?:[ \t]{1,4}|=)\\?["']?[^\s:"'@$\\]{1,128}:([^\s"']{1,256})/g,
    group: 1,
    keywords: ["-u"],
    validate: (value) => !/^\d+$/.test(value) && !isPlaceholder(value) && !looksLikeCode(value),
  },
  {
    name: "netrc-password",
    family: "cli",
    pattern:
      /(?<![A-Za-z])login[ \t]{1,8}[^\s"'\\]{1,256}(?:[ \t\r\n]|\\[nrt]){1,16}password[ \t]{1,8}([^\s"'\\]{1,256})/g,
    group: 1,
    keywords: ["login"],
    validate: (value) => !isPlaceholder(value),
  },
  {
    // CREATE USER ... IDENTIFIED BY 'x', ALTER ROLE ... PASSWORD 'x'.
    name: "sql-password",
    family: "cli",
    // No double quote inside: in JSON-serialized text it would close the string.
    pattern: /(?:identified[ \t]{1,4}by|password)[ \t]{1,4}'([^'"\r\n]{1,256})'/gi,
    group: 1,
    keywords: ["identified", "password"],
    validate: (value) => !isPlaceholder(value),
  },
];
