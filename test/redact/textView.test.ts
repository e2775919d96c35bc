import { describe, expect, it } from "vitest";
import { redact, redactText } from "../../src/redact/index.js";

const token = `ghp_${"a1B2c3D4e5".repeat(3)}a1B2c3`;

describe("a token on its own line of JSON-serialized text", () => {
  // A transcript stores "here:\nghp_..." as `here:\\nghp_...`: the token is glued to the "n".
  it.each([
    ["after an escaped line break", `here:\n${token}`],
    ["after an escaped tab (cat -n)", `     9\t${token}`],
    ["after an escaped carriage return", `x\r\nAKIAVQJXXVBOTHD0WTFL`],
  ])("is redacted %s, and the JSON stays valid", (_, text) => {
    const out = redactText(JSON.stringify({ content: text }));
    expect(out).not.toContain(token);
    expect(out).not.toContain("AKIAVQJXXVBOTHD0WTFL");
    expect(() => JSON.parse(out)).not.toThrow();
  });

  it("is redacted in doubly serialized JSON (a transcript line quoted inside another)", () => {
    const twice = JSON.stringify(JSON.stringify({ content: `here:\n${token}` }));
    const out = redactText(twice);
    expect(out).not.toContain(token);
    expect(() => JSON.parse(JSON.parse(out) as string)).not.toThrow();
  });

  it("keeps the escape itself outside the marker", () => {
    expect(redactText(JSON.stringify(`here:\n${token}`))).toBe('"here:\\n[REDACTED:github-token]"');
    expect(redactText(JSON.stringify(`9\t${token} x`))).toBe('"9\\t[REDACTED:github-token] x"');
    expect(redactText(JSON.stringify(`9\r${token} x`))).toBe('"9\\r[REDACTED:github-token] x"');
  });
});

describe("invisible characters inside a secret", () => {
  it.each([
    ["zero-width space", "\u200B"],
    ["zero-width non-joiner", "\u200C"],
    ["zero-width joiner", "\u200D"],
    ["word joiner", "\u2060"],
    ["byte order mark", "\uFEFF"],
    ["soft hyphen", "\u00AD"],
  ])("do not hide it: %s", (_, invisible) => {
    const split = `${token.slice(0, 10)}${invisible}${token.slice(10)}`;
    const { text, findings } = redact(`export GITHUB_TOKEN=${split} # from the wiki`);
    expect(text).toBe("export GITHUB_TOKEN=[REDACTED:github-token] # from the wiki");
    expect(findings).toHaveLength(1);
  });

  it("are kept where no secret is", () => {
    const line = "word\u200Bjoiner and soft\u00ADhyphen, nothing secret";
    expect(redactText(line)).toBe(line);
  });

  it("leave the offsets of findings pointing into the input", () => {
    const input = `\uFEFFa\u200Bb password=Tr0ub4dor\u200B-3x`;
    const { findings } = redact(input);
    expect(findings).toHaveLength(1);
    expect(input.slice(findings[0]!.start, findings[0]!.end)).toBe("Tr0ub4dor\u200B-3x");
  });
});
