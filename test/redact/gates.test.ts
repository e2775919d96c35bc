import { describe, expect, it } from "vitest";
import {
  isEncodedCredentialPair,
  isPlaceholder,
  isTemplate,
  looksGenerated,
  looksLikeBareSecret,
  looksLikeCode,
  looksLikeWords,
  looksRandom,
  nameEndingAt,
} from "../../src/redact/gates.js";

// Shell-style `${VAR}` placeholders are inputs here, not template strings.
const envRef = (name: string) => "$" + `{${name}}`;

describe("isPlaceholder / isTemplate", () => {
  it.each([
    "",
    "null",
    "None",
    "string",
    "changeme",
    envRef("TOKEN"),
    "{{ .Values.pw }}",
    "<password>",
    "****",
    "$DB_PASS",
    "%s",
    "your_api_key_here",
    "sk-...",
    "[REDACTED:jwt]",
  ])("%j is a placeholder", (value) => expect(isPlaceholder(value)).toBe(true));

  it.each(["hunter2x", "Tr0ub4dor&3", "a8Fk2pQz9", "$3cr3t!"])("%j is not", (value) => {
    expect(isPlaceholder(value)).toBe(false);
  });

  it("treats only syntax as a template, so a URL's literal password 'pass' is kept as secret", () => {
    expect(isTemplate("pass")).toBe(false);
    expect(isPlaceholder("pass")).toBe(true);
    expect(isTemplate(envRef("PGPASSWORD"))).toBe(true);
  });
});

describe("looksLikeCode", () => {
  it.each([
    "process.env.TOKEN",
    "self.token",
    "getToken()",
    "$TOKEN",
    "{value}",
    "[a]",
    "!vault",
    "&anchor",
    "config?.apiKey",
  ])("%j is code", (value) => expect(looksLikeCode(value)).toBe(true));

  it.each(["hunter2", "a8Fk2pQz9", "abc.123"])("%j is not", (value) => expect(looksLikeCode(value)).toBe(false));
});

describe("looksLikeWords / looksRandom", () => {
  it.each(["hello_world_token", "parseTokenValue", "HTMLParserError", "lastSignificantToken", "?InterpolationInJSX"])(
    "%j is made of words, not random",
    (value) => {
      expect(looksLikeWords(value)).toBe(true);
      expect(looksRandom(value)).toBe(false);
    },
  );

  it.each([
    "Zx81mZ0pAq7Lk2Jd",
    "d41d8cd98f00b204e9800998ecf8427e",
    "xKqPzLmWnRtYvBcD",
    "110ec58a-a0f2-4ac4-8393-c866d813b8d1",
  ])("%j looks random", (value) => expect(looksRandom(value)).toBe(true));

  it("needs length, no blanks and more than one character class", () => {
    expect(looksRandom("a8Fk2")).toBe(false);
    expect(looksRandom("a8Fk 2pQz9")).toBe(false);
    expect(looksRandom("12345678901234")).toBe(false);
  });
});

describe("isEncodedCredentialPair", () => {
  it("accepts base64 of user:password and nothing else", () => {
    expect(isEncodedCredentialPair(Buffer.from("ada:s3cret!").toString("base64"))).toBe(true);
    expect(isEncodedCredentialPair("information")).toBe(false);
    expect(isEncodedCredentialPair(Buffer.from("no colon here").toString("base64"))).toBe(false);
  });
});

describe("nameEndingAt", () => {
  it("reads the identifier back from a position", () => {
    const text = 'export DB_PASSWORD="x"';
    expect(nameEndingAt(text, text.indexOf("="))).toBe("DB_PASSWORD");
  });
});

describe("looksLikeBareSecret: a value standing alone that is still a credential", () => {
  it.each(["Vu7nQ2zLx9pR4wKt", "Tr0ub4dor&3xQz9Wv", "Hunter2Hunter2xq", "8c1f3a9d7e2b4c6f0a1d3e5f7b9c2d4e6f8a0b1c"])(
    "%j is one",
    (value) => expect(looksLikeBareSecret(value)).toBe(true),
  );

  it.each([
    "IPv6Address",
    "utf8mb4_unicode_ci",
    "e2e-test-2024-q3-migration",
    "X509Certificate2Collection",
    "python3.12",
    "k8s-v1.28-upgrade",
    "OAuth2Client",
    "i18n-l10n",
    "blue-green deploy",
    "https://a1b2c3d4.example/x9y8",
  ])("%j is a name people search for", (value) => expect(looksLikeBareSecret(value)).toBe(false));
});

describe("the gates at their edges", () => {
  it("isEncodedCredentialPair wants 8+ characters of base64 decoding to printable name:secret", () => {
    const b64 = (text: string) => Buffer.from(text, "latin1").toString("base64");
    expect(isEncodedCredentialPair(b64("ab:cd"))).toBe(true);
    expect(isEncodedCredentialPair(b64("ab:c").replace(/=+$/, ""))).toBe(false); // 6 characters
    expect(isEncodedCredentialPair(`${b64("ada:s3cret!")}A`)).toBe(false); // length 4n+1 is no base64
    expect(isEncodedCredentialPair(b64(":s3cret!"))).toBe(false);
    expect(isEncodedCredentialPair(b64("s3cret!:"))).toBe(false);
    expect(isEncodedCredentialPair(b64("ada:s3\ncret"))).toBe(false);
    expect(isEncodedCredentialPair(b64("\u0001da:s3cret"))).toBe(false);
    expect(isEncodedCredentialPair(b64("ada:s3cre\u0001"))).toBe(false);
  });

  it("looksLikeBareSecret keeps out paths, drive paths and blanks, and needs 10 characters", () => {
    expect(looksLikeBareSecret("Vu7nQ2zL/x9pR4wKt")).toBe(true);
    expect(looksLikeBareSecret("./Vu7nQ2zLx9pR4wKt")).toBe(false);
    expect(looksLikeBareSecret("~/Vu7nQ2zLx9pR4wKt")).toBe(false);
    expect(looksLikeBareSecret("C:\\Vu7nQ2zLx9pR4wKt")).toBe(false);
    expect(looksLikeBareSecret("Vu7nQ2z Lx9pR4wKt")).toBe(false);
    expect(looksLikeBareSecret("a1b2c3d4eX")).toBe(true);
    expect(looksLikeBareSecret("a1b2c3d4X")).toBe(false);
  });

  it("looksRandom refuses digits alone and short runs of letters without a digit", () => {
    expect(looksRandom("9081726354019283")).toBe(false);
    expect(looksRandom("xKqPzLmWnRtY")).toBe(false);
  });

  it("looksGenerated wants a digit and no words", () => {
    expect(looksGenerated("2231a9Zq8xWv")).toBe(true);
    expect(looksGenerated("hf_AutoModelForCausalLM")).toBe(false);
    expect(looksGenerated("qzxkqpzlmwnr")).toBe(false);
  });

  it("looksLikeWords: parts of three letters on average are words; long runs without a vowel are not", () => {
    expect(looksLikeWords("getKeyMap")).toBe(true);
    expect(looksLikeWords("bcdfgh_value")).toBe(false);
    expect(looksLikeWords("aeiou_value")).toBe(true);
    expect(looksLikeWords("---")).toBe(false);
  });

  it("isTemplate counts a value of blanks as empty", () => {
    expect(isTemplate("   ")).toBe(true);
    expect(isTemplate(" x ")).toBe(false);
  });

  it("nameEndingAt reads back 80 characters at most and drops only a leading run of non-letters", () => {
    const long = `${"a".repeat(100)}=`;
    expect(nameEndingAt(long, 100)).toBe("a".repeat(80));
    const text = "x DB_2FA_TOKEN=";
    expect(nameEndingAt(text, text.indexOf("="))).toBe("DB_2FA_TOKEN");
  });
});
