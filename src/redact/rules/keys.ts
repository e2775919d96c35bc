import type { SecretRule } from "../types.js";

/** True when base64 `value` begins with a PEM private key's BEGIN line (certificates begin alike). */
function encodesPrivateKey(value: string): boolean {
  const head = Buffer.from(value.slice(0, 96), "base64").toString("latin1");
  return /^-{5}BEGIN [A-Z0-9 ]{0,32}PRIVATE KEY/.test(head);
}

/**
 * Key material recognised by its own framing: PEM/OpenSSH/PGP private key blocks, JWTs, age keys.
 */
export const keyRules: SecretRule[] = [
  {
    // The body is redacted and the BEGIN/END lines kept. The body stops at the first "-----" (the
    // END line, or the next BEGIN when a key was cut off), so a run of unterminated BEGIN lines is
    // still scanned once. Backslashes are allowed so that JSON-escaped keys ("\n") match too. A
    // missing END still redacts the body that is there: truncated tool output is common. The body
    // may carry the line numbers of a file view on every line ("     9→", "00009| ", "9#ZP:",
    // "path:9:"; see test/redact/fileViews.ts), hence '→', '|', '#' and '_' among its characters.
    name: "private-key",
    family: "private-key",
    pattern:
      /-{4,5} ?BEGIN[ A-Z0-9]{0,32}PRIVATE KEY(?: BLOCK)? ?-{4,5}((?:[A-Za-z0-9+/=\s\\:,._|#\u2192]|-(?!---)|"[^"\r\n{}[\],]{0,128}"){16,65536})(?:-{4,5} ?END[ A-Z0-9]{0,32}PRIVATE KEY(?: BLOCK)? ?-{4,5})?/g,
    group: 1,
    keywords: ["private key"],
    // Prose about keys ("starts with -----BEGIN RSA PRIVATE KEY----- and ends with ...") has no
    // base64 run. A quoted comment (SSH2 `Comment: "rsa-key"`) may sit in the body, but a bare quote
    // ends it: in a JSON-serialized transcript, that quote closes the string.
    validate: (body) => /[A-Za-z0-9+/]{32}/.test(body),
  },
  {
    name: "jwt",
    family: "jwt",
    pattern: /(?<![A-Za-z0-9])eyJ[A-Za-z0-9_-]{8,8192}\.eyJ[A-Za-z0-9_-]{2,65536}(?:\.[A-Za-z0-9_-]{1,8192}){0,3}/g,
    glued: true,
    keywords: ["eyj"],
  },
  {
    name: "age-secret-key",
    family: "private-key",
    pattern: /AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}/g,
    keywords: ["age-secret-key-"],
  },
  {
    // A PEM key as base64: kubeconfig client-key-data, a Kubernetes Secret's tls.key, CI variables.
    // "LS0tLS1CRUdJTi" is base64 of "-----BEGIN"; decoding tells a key from a certificate.
    name: "encoded-private-key",
    family: "private-key",
    pattern: /(?<![A-Za-z0-9+/])LS0tLS1CRUdJTi[A-Za-z0-9+/]{40,65536}={0,2}/g,
    keywords: ["ls0tls1crudjt"],
    validate: encodesPrivateKey,
  },
  {
    // PuTTY .ppk files: the private lines run from "Private-Lines: N" to "Private-MAC:". Line-number
    // prefixes of file views are allowed, as in the PEM body.
    name: "putty-private-key",
    family: "private-key",
    pattern: /Private-Lines:[ \t]{0,4}\d{1,5}((?:[A-Za-z0-9+/=\s\\:._|#\u2192]|-(?!MAC:)){16,65536})/g,
    group: 1,
    keywords: ["private-lines:"],
    validate: (body) => /[A-Za-z0-9+/]{32}/.test(body),
  },
];
