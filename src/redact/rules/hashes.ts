import type { SecretRule } from "../types.js";

/** Each crypt(3) or LDAP scheme, by its marker and the lengths of its fields. */
const HASH_FORMS = [
  // bcrypt: $2b$12$ then 22 characters of salt and 31 of hash.
  String.raw`\$2[abxy]?\$\d{2}\$[./A-Za-z0-9]{53}`,
  // MD5-crypt, Apache's apr1.
  String.raw`\$(?:1|apr1|md5)\$[./A-Za-z0-9]{1,8}\$[./A-Za-z0-9]{22}`,
  // SHA-256/512-crypt, optionally with rounds.
  String.raw`\$[56]\$(?:rounds=\d{1,9}\$)?[./A-Za-z0-9]{1,16}\$[./A-Za-z0-9]{43,86}`,
  // yescrypt, gost-yescrypt, scrypt.
  String.raw`\$(?:y|gy|7)\$[./A-Za-z0-9]{1,128}\$[./A-Za-z0-9]{1,128}\$[./A-Za-z0-9]{43}`,
  String.raw`\$argon2(?:id|i|d)\$v=\d{1,3}\$m=\d{1,9},t=\d{1,9},p=\d{1,3}\$[A-Za-z0-9+/]{8,128}\$[A-Za-z0-9+/]{16,256}`,
  // Django's pbkdf2_sha256$iterations$salt$hash.
  String.raw`pbkdf2_sha(?:1|256|512)\$\d{1,7}\$[A-Za-z0-9+/=._-]{4,64}\$[A-Za-z0-9+/=]{20,128}`,
  // LDAP and htpasswd {SHA}, {SSHA}, {SSHA512}...
  String.raw`\{S?SHA(?:256|384|512)?\}[A-Za-z0-9+/]{20,256}={0,2}`,
].map((form) => `(?:${form})`);

/**
 * Password hashes in their crypt(3) and LDAP forms, as in .htpasswd, /etc/shadow, database dumps
 * and seed files: not the password, but enough to crack a weak one offline. Only the hash is
 * redacted; the user name before it stays.
 */
export const hashRules: SecretRule[] = [
  {
    name: "password-hash",
    family: "password-hash",
    pattern: new RegExp(`(?<![A-Za-z0-9$])(?:${HASH_FORMS.join("|")})(?![./A-Za-z0-9$])`, "g"),
    keywords: [
      "$2$",
      "$2a$",
      "$2b$",
      "$2x$",
      "$2y$",
      "$1$",
      "$apr1$",
      "$md5$",
      "$5$",
      "$6$",
      "$y$",
      "$gy$",
      "$7$",
      "$argon2",
      "pbkdf2_sha",
      "{sha",
      "{ssha",
    ],
  },
];
