/** The secrets the every-door test pushes through each way into the store. */

export interface Secret {
  name: string;
  /** The secret in its context, as a user would paste it. */
  text: string;
  /** Values that must never be stored (checked case-insensitively, with their longest alphanumeric run). */
  raw: string[];
}

// Real formats, synthetic values (none of these is live).
export const SECRETS: Secret[] = [
  {
    name: "github token",
    text: "use token ghp_R7kW2pQ9xZ4mN8vB3cL6tY1hJ5gF0dS2aE7u for the API",
    raw: ["ghp_R7kW2pQ9xZ4mN8vB3cL6tY1hJ5gF0dS2aE7u"],
  },
  { name: "aws key id", text: "AWS_ACCESS_KEY_ID=AKIAZ7QW3ER5TY9UI2OP", raw: ["AKIAZ7QW3ER5TY9UI2OP"] },
  {
    name: "aws secret key",
    text: "aws_secret_access_key = Jx8Vq2Lm4Nz6Rt0Wy3Bc5Df7Gh9Kp1Ms4Qu6Xa8Z",
    raw: ["Jx8Vq2Lm4Nz6Rt0Wy3Bc5Df7Gh9Kp1Ms4Qu6Xa8Z"],
  },
  { name: "password assignment", text: "password=Tr0ub4dor-and-3-horses", raw: ["Tr0ub4dor-and-3-horses"] },
  // Its tail after the "&" was once stored next to the marker.
  {
    name: "password with an ampersand",
    text: "The staging db password: Tr0ub4dor&3xQz9Wv",
    raw: ["Tr0ub4dor&3xQz9Wv", "&3xQz9Wv"],
  },
  {
    name: "pem private key",
    text: [
      "-----BEGIN RSA PRIVATE KEY-----",
      "MIIEowIBAAKCAQEAq7Jx9ZpQ2mLwVb5NcR8tYkHfUe3sDg6AoPi1TzXy4WnKvMjE",
      "Wd0Pq3Kz8Yf2Xm6Ln1Tb4Hs7Rv9Gc5Ja0Ue3Oi6Fy8Ek2Nw4Dh7Ss1Vg9Bl3Mx==",
      "-----END RSA PRIVATE KEY-----",
    ].join("\n"),
    raw: ["MIIEowIBAAKCAQEAq7Jx9ZpQ2mLwVb5NcR8tYkHfUe3sDg6AoPi1TzXy4WnKvMjE"],
  },
  {
    name: "slack token",
    text: "slack bot token xoxb-2231456789012-9876543210987-QwErTyUiOpAsDfGhJkLzXcVb",
    raw: ["xoxb-2231456789012-9876543210987-QwErTyUiOpAsDfGhJkLzXcVb"],
  },
  {
    name: "stripe key",
    text: "stripe key sk_live_51HxQwErTyUiOpAsDfGhJkLz0123456789abcdef",
    raw: ["sk_live_51HxQwErTyUiOpAsDfGhJkLz0123456789abcdef"],
  },
  {
    name: "url with password",
    text: "connect to postgres://admin:Vu7nQ2zLx9pR4wKt@db.internal.example:5432/app",
    raw: ["Vu7nQ2zLx9pR4wKt"],
  },
  {
    name: "git remote with token",
    text: "git remote add origin https://x-access-token:ghs_Z9yX8wV7uT6sR5qP4oN3mL2kJ1iH0gF9eD8c@github.com/acme/app.git",
    raw: ["ghs_Z9yX8wV7uT6sR5qP4oN3mL2kJ1iH0gF9eD8c"],
  },
];

// enabled after the b-rules merge: these need the redactor rules helper B adds (src/redact/rules/**).
export const B_RULES_ENABLED = true;
export const AFTER_B_RULES: Secret[] = [
  {
    name: "claude code Read view of a PEM key (line-numbered)",
    text: [
      "     7→# deploy key",
      "     8→-----BEGIN RSA PRIVATE KEY-----",
      "     9→MIIEpAIBAAKCAQEA3nQ8wZ5xL2kVt7RbP9sJmC4yH6gD1fU0aXeT8oNqWvKzLc2B",
      "    10→-----END RSA PRIVATE KEY-----",
    ].join("\n"),
    raw: ["MIIEpAIBAAKCAQEA3nQ8wZ5xL2kVt7RbP9sJmC4yH6gD1fU0aXeT8oNqWvKzLc2B"],
  },
  {
    name: "gcp private_key_id",
    text: '"private_key_id": "8c1f3a9d7e2b4c6f0a1d3e5f7b9c2d4e6f8a0b1c"',
    raw: ["8c1f3a9d7e2b4c6f0a1d3e5f7b9c2d4e6f8a0b1c"],
  },
  {
    name: "zero-width character inside a token",
    text: "token ghp_Q3wE5rT7yU9iO1pA\u200bS3dF5gH7jK9lZ1xC3vB5nM7q",
    raw: ["S3dF5gH7jK9lZ1xC3vB5nM7q"],
  },
  { name: "htpasswd hash", text: "admin:$apr1$Xy3kL9pQ$Vb7nM2zR4wKt8sJ1hG6fD0", raw: ["Vb7nM2zR4wKt8sJ1hG6fD0"] },
  { name: "mysql -p", text: "mysql -u root -pHunter2Hunter2xq appdb", raw: ["Hunter2Hunter2xq"] },
];

export const CORPUS = B_RULES_ENABLED ? [...SECRETS, ...AFTER_B_RULES] : SECRETS;
export const PRIVATE_TEXT = "my launch code is PURPLE-OCTOPUS-4242";
export const PRIVATE_BLOCK = `<Private>${PRIVATE_TEXT}</PRIVATE>`;

/** Door texts: each carries a canary (recorded, so the test can check it arrived), the corpus and a private block. */
export interface DoorTexts {
  canaries: string[];
  canary(name: string): string;
  door(name: string): string;
  fileView(name: string): string;
}

export function doorTexts(): DoorTexts {
  /** A text for one door: its canary, every secret of the corpus, and a private block. */
  function payload(canary: string): string {
    return [canary, ...CORPUS.map((secret) => secret.text), `remember this ${PRIVATE_BLOCK} thanks`].join("\n");
  }

  const canaries: string[] = [];
  function canary(name: string): string {
    const value = `canary-${name}-${canaries.length}`;
    canaries.push(value);
    return value;
  }

  function door(name: string): string {
    return payload(canary(name));
  }

  /**
   * The corpus as Claude Code's Read tool shows a file: every line numbered. The plain PEM block is left
   * out (a numbered key block needs the rules of AFTER_B_RULES, which carries its own numbered PEM), and
   * entries that are file views already are appended as they are.
   */
  function fileView(name: string): string {
    const isView = (secret: Secret) => secret.text.includes("→");
    const plain = CORPUS.filter((secret) => secret.name !== "pem private key" && !isView(secret));
    const lines = [canary(name), ...plain.map((secret) => secret.text), `remember this ${PRIVATE_BLOCK} thanks`]
      .join("\n")
      .split("\n");
    const numbered = lines.map((line, index) => `${String(index + 1).padStart(6)}→${line}`);
    return [...numbered, ...CORPUS.filter(isView).map((secret) => secret.text)].join("\n");
  }
  return { canaries, canary, door, fileView };
}
