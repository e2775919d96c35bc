import { isEncodedCredentialPair, isPlaceholder, isTemplate, looksRandom } from "../gates.js";
import type { SecretRule } from "../types.js";

/** Credentials inside URLs and HTTP authorization headers. */
export const connectionRules: SecretRule[] = [
  {
    // scheme://user:password@host for any scheme (postgres, mysql, mongodb+srv, redis, amqp, https,
    // jdbc:...). The password may hold ':' and even '@' (the last '@' before the host wins); the
    // user part holds neither. Only the password is redacted; even "pass" in `user:pass@`, since the
    // syntax leaves no doubt that it is the password. The match begins at "://" and checks the
    // scheme by look-behind, so that the regex is not tried at every letter. The scheme may follow
    // '+' or '-' (a diff's added line, `rg` context, `git+ssh`): a shorter scheme matches then.
    name: "url-password",
    family: "connection-string",
    pattern:
      /:\/\/(?<=(?<![A-Za-z0-9])[A-Za-z][A-Za-z0-9+.-]{1,30}:\/\/)[^\s:@/?#"'<>[\]\\]{0,256}:([^\s/?#"'<>\\]{1,256})@(?=[A-Za-z0-9[._-])/g,
    group: 1,
    keywords: ["://"],
    validate: (password) => !isTemplate(password),
  },
  {
    name: "bearer-token",
    family: "auth-header",
    pattern: /(?<![A-Za-z0-9_])bearer[ \t]{1,4}([A-Za-z0-9._~+/-]{12,4096}=*)/gi,
    group: 1,
    keywords: ["bearer"],
    after: /[ \t]{1,4}[A-Za-z0-9._~+/-]{12}/,
    validate: (token) => looksRandom(token, 12),
  },
  {
    // Decoding tells a credential ("dXNlcjpwYXNz" is "user:pass") from the word "Basic" in prose.
    name: "basic-auth",
    family: "auth-header",
    pattern: /(?<![A-Za-z0-9_])basic[ \t]{1,4}([A-Za-z0-9+/]{8,2048}={0,2})(?![A-Za-z0-9+/=])/gi,
    group: 1,
    keywords: ["basic"],
    after: /[ \t]{1,4}[A-Za-z0-9+/]{8}/,
    validate: isEncodedCredentialPair,
  },
  {
    // `Authorization: <credential>` with a scheme other than Bearer/Basic, or none.
    name: "authorization-header",
    family: "auth-header",
    pattern:
      /authorization\\?["']?[ \t]{0,4}[:=][ \t]{0,4}\\?["']?(?:(?:token|apikey|api-key|key|sso-key|splunk|otp|dsn|klaviyo-api-key)[ \t]{1,4})?([^\s"',;\\]{12,4096})/gi,
    group: 1,
    keywords: ["authorization"],
    validate: (credential) => looksRandom(credential, 12),
  },
  {
    // docker config.json `"auth": "<base64 user:pass>"` and .npmrc `_auth=<base64 user:pass>`.
    name: "encoded-basic-credential",
    family: "auth-header",
    pattern:
      /(?:\\?"auth\\?"[ \t]{0,4}:[ \t]{0,4}\\?"|(?<![A-Za-z0-9])_auth[ \t]{0,4}=[ \t]{0,4}["']?)([A-Za-z0-9+/]{8,2048}={0,2})/g,
    group: 1,
    keywords: ["auth"],
    after: /\\?"[ \t]{0,4}:|[ \t]{0,4}=/,
    validate: isEncodedCredentialPair,
  },
  {
    // A token as the URL's user, with no password: Sentry DSNs (https://<key>@o1.ingest.sentry.io/2),
    // Azure DevOps and GitHub clone URLs (https://<PAT>@dev.azure.com/...). Names are not random.
    name: "url-token",
    family: "connection-string",
    pattern: /:\/\/(?<=(?<![A-Za-z0-9])[A-Za-z][A-Za-z0-9+.-]{1,30}:\/\/)([A-Za-z0-9_-]{20,256})@(?=[A-Za-z0-9[._-])/g,
    group: 1,
    keywords: ["://"],
    validate: (token) => looksRandom(token, 20),
  },
  {
    // Oracle's user/password@db: JDBC thin URLs, sqlplus, expdp/impdp (lowercase, as typed: no `i`
    // flag, which made this rule the slowest on code).
    name: "oracle-password",
    family: "connection-string",
    pattern:
      /(?:jdbc:oracle:(?:thin|oci8?):|(?:sqlplus|expdp|impdp)(?<![A-Za-z0-9_](?:sqlplus|expdp|impdp))(?:[ \t]{1,4}-[A-Za-z]{1,8}){0,3}[ \t]{1,4}\\?["']?)[A-Za-z0-9_$#.]{1,128}\/([^\s@"'/]{1,256})@/g,
    group: 1,
    keywords: ["jdbc:oracle", "sqlplus", "expdp", "impdp"],
    validate: (password) => !isTemplate(password),
  },
  {
    // ~/.pgpass lines: hostname:port:database:username:password.
    name: "pgpass-password",
    family: "connection-string",
    pattern:
      /:(?=(?:\d{1,5}|\*):)(?<=(?<![A-Za-z0-9_.*@/-])(?:[A-Za-z0-9_.-]{1,253}|\*):)(?:\d{1,5}|\*):(?:[A-Za-z0-9_.$-]{1,63}|\*):(?:[A-Za-z0-9_.@$-]{1,63}|\*):([^\s:"'\\]{1,256})(?![^\s"'\\])/g,
    group: 1,
    keywords: [":5432:", ":*:", "pgpass"],
    validate: (password) => !isPlaceholder(password),
  },
  {
    // Cookie and Set-Cookie headers, curl --cookie: session cookies are bearer credentials. Any
    // cookie whose value looks generated (see looksRandom), named or not.
    name: "session-cookie",
    family: "auth-header",
    // Scanned from each "=" followed by 16 value characters; only those look back for the header.
    pattern:
      /=(?=[^\s;,"'\\]{16})(?<=cookie(?:\\?["'])?[ \t]{0,4}[:= \t][^\r\n]{0,1024}(?<![A-Za-z0-9_.-])[A-Za-z0-9_.-]{1,64}=)([^\s;,"'\\]{16,4096})/gi,
    group: 1,
    keywords: ["cookie"],
    validate: (value) => looksRandom(value, 16),
  },
];
