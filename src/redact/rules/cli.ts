import { isPlaceholder, looksLikeCode } from "../gates.js";
import type { SecretRule } from "../types.js";
import { isNamedValue } from "./assignmentGates.js";
import { LINE_PREFIX, VALUE } from "./fragments.js";

/**
 * Up to 16 arguments of a command before `flag`, none of them `flag` itself (so the first `flag` is
 * the one matched). Arguments hold no blank and no shell operator, which keeps the split unique.
 */
function argumentsBefore(flag: string): string {
  return String.raw`(?:[ \t]{1,4}(?!${flag})[^\s|;&<>]{1,256}){0,16}[ \t]{1,4}${flag}`;
}

/** A password given as the value of a flag: not a placeholder, a variable or another flag. */
const isFlagPassword = (value: string) => !value.startsWith("-") && !isPlaceholder(value) && !looksLikeCode(value);

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
    after: /(?:ser)?(?:[ \t]{1,4}|=)/,
    validate: (value) => !/^\d+$/.test(value) && !isPlaceholder(value) && !looksLikeCode(value),
  },
  {
    name: "netrc-password",
    family: "cli",
    pattern: new RegExp(
      String.raw`(?<![A-Za-z])login[ \t]{1,8}[^\s"'\\]{1,256}(?:[ \t]|\r?\n${LINE_PREFIX}|\\[nrt]){1,16}password[ \t]{1,8}([^\s"'\\]{1,256})`,
      "g",
    ),
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
  {
    // `mysql -pSECRET`: the password attached to -p (a bare `-p` prompts; `-P3306` is the port).
    name: "mysql-password",
    family: "cli",
    pattern: new RegExp(
      `(?:mysql|mariadb)(?<![A-Za-z0-9_](?:mysql|mariadb))(?:dump|admin|import|check|show|pump|sh|-dump|-admin)?${argumentsBefore("-p")}${VALUE}`,
      "g",
    ),
    group: [1, 2, 3, 4],
    keywords: ["mysql", "mariadb"],
    validate: isFlagPassword,
  },
  {
    // `docker login -u ada -p SECRET registry` (also podman, nerdctl, buildah).
    name: "docker-login-password",
    family: "cli",
    pattern: new RegExp(
      String.raw`login(?<=(?<![A-Za-z0-9_])(?:docker|podman|nerdctl|buildah)[ \t]{1,4}login)${argumentsBefore("-p")}(?:[ \t]{1,4}|=)${VALUE}`,
      "g",
    ),
    group: [1, 2, 3, 4],
    keywords: ["login"],
    validate: isFlagPassword,
  },
  {
    // SQL Server's sqlcmd and bcp take the password as -P (capital), unlike mysql.
    name: "sqlcmd-password",
    family: "cli",
    pattern: new RegExp(
      String.raw`(?:sqlcmd|bcp|osql)(?<![A-Za-z0-9_](?:sqlcmd|bcp|osql))${argumentsBefore("-P")}[ \t]{0,4}${VALUE}`,
      "g",
    ),
    group: [1, 2, 3, 4],
    keywords: ["sqlcmd", "bcp", "osql"],
    validate: isFlagPassword,
  },
  {
    name: "redis-cli-password",
    family: "cli",
    pattern: new RegExp(String.raw`redis-cli(?<![A-Za-z0-9_]redis-cli)${argumentsBefore("-a")}[ \t]{1,4}${VALUE}`, "g"),
    group: [1, 2, 3, 4],
    keywords: ["redis-cli"],
    validate: isFlagPassword,
  },
  {
    // OpenLDAP's tools take the bind password as -w (`-W` prompts for it): `ldapsearch -x -D cn=admin
    // -w SECRET -b dc=example`, also attached (`-wSECRET`).
    name: "ldap-bind-password",
    family: "cli",
    pattern: new RegExp(
      String.raw`ldap(?<![A-Za-z0-9_]ldap)(?:search|modify|add|delete|whoami|passwd|compare|modrdn|exop|url)${argumentsBefore("-w")}[ \t]{0,4}${VALUE}`,
      "g",
    ),
    group: [1, 2, 3, 4],
    keywords: ["ldap"],
    validate: isFlagPassword,
  },
  {
    // keytool and jarsigner: -storepass, -keypass, -srcstorepass, -deststorepass (not -storepass:env).
    name: "keytool-password",
    family: "cli",
    pattern: new RegExp(
      String.raw`pass(?<=(?<![A-Za-z0-9_-])-(?:src|dest|new)?(?:store|key)pass)[ \t]{1,4}${VALUE}`,
      "g",
    ),
    group: [1, 2, 3, 4],
    keywords: ["storepass", "keypass"],
    validate: isFlagPassword,
  },
  {
    // `htpasswd -b [-c] file user PASSWORD`, `htpasswd -nb user PASSWORD`: batch mode takes the
    // password as the last argument.
    name: "htpasswd-password",
    family: "cli",
    pattern: new RegExp(
      String.raw`htpasswd(?<![A-Za-z0-9_]htpasswd)((?:[ \t]{1,4}-[A-Za-z]{1,8}){1,6})[ \t]{1,4}(?!-)[^\s|;&<>]{1,256}[ \t]{1,4}((?!-)[^\s"'|;&<>]{1,256})(?:[ \t]{1,4}${VALUE})?`,
      "g",
    ),
    group: [3, 4, 5, 6, 2],
    keywords: ["htpasswd"],
    // Without -n, a file comes first, so the password is the third argument.
    validate: (value, match) =>
      /b/.test(match[1] ?? "") &&
      (/n/.test(match[1] ?? "") || match.slice(3, 7).some((v) => v !== undefined)) &&
      isFlagPassword(value),
  },
];
