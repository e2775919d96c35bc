import { describe, expect, it } from "vitest";
import { redact, redactText } from "../../src/redact/index.js";
import { readLabelled, readTrickyNegatives, sampleOrdinaryLines } from "./corpus.js";
import { asFileView, FILE_VIEWS } from "./fileViews.js";

const labelled = readLabelled();

/** The parts of a secret that must not survive: a multi-line secret is checked line by line. */
function pieces(secret: string): string[] {
  return secret.split(/\n|\\n/).filter((piece) => piece.length >= 6);
}

describe.each(Object.entries(FILE_VIEWS))("a file shown as %s", (_, view) => {
  it("loses every labelled secret, as text and JSON-serialized", () => {
    const leaks: string[] = [];
    for (const example of labelled) {
      const text = asFileView(example.text, view);
      const plain = redactText(text);
      const json = redactText(JSON.stringify({ type: "tool_result", content: text }));
      expect(() => JSON.parse(json)).not.toThrow();
      for (const piece of example.secrets.flatMap(pieces)) {
        if (plain.includes(piece)) leaks.push(`line ${example.line}: ${piece.slice(0, 40)}`);
        if (json.includes(JSON.stringify(piece).slice(1, -1)))
          leaks.push(`line ${example.line} (json): ${piece.slice(0, 40)}`);
      }
    }
    expect(leaks).toEqual([]);
  });
});

describe("ordinary lines in a file view", () => {
  it.each(Object.entries(FILE_VIEWS))("stay as they are, shown as %s (tricky negatives)", (_, view) => {
    const changed = readTrickyNegatives()
      .map((line, i) => view(i + 1, line))
      .filter((line) => redactText(line) !== line);
    expect(changed).toEqual([]);
  });

  // Skipped by mutation testing, as its twin in redact.test.ts.
  it.skipIf(process.env.CAIRN_MUTATION_RUN === "1")(
    "change fewer than 1% of node_modules lines read with Claude Code's Read tool",
    () => {
      const { lines } = sampleOrdinaryLines(5_000);
      const shown = asFileView(lines.join("\n"), FILE_VIEWS["claude-code read"]!, 1).split("\n");
      const changed = shown.filter((line) => redactText(line) !== line);
      expect(changed.length / shown.length).toBeLessThan(0.01);
    },
  );
});

describe("a private key read with Claude Code's Read tool", () => {
  const body = [
    "MIIEowIBAAKCAQEAx3Lq9Vb7mZ2pK8wQ4tR1sYc6nE0fH5jU3iO7aL9dG2kB4vN8",
    "eXr5Tq1Wz3Yp7Ls9Kd2Mf6Hj0Gb4Nc8Vx1Qa5Rt9Ue3Io7Py2Sd6Fg0Hk4Jl8Zm1B",
    "Cn5Vb9Mx3Lq7Wr1Te5Yu9Ip3Oa7Sd1Fg5Hj9Kl3Zx7Cv1Bn5Mq9Wt3Er7Ty1Ui5O",
  ];
  const file = ["# deploy key", "-----BEGIN RSA PRIVATE KEY-----", ...body, "-----END RSA PRIVATE KEY-----", ""].join(
    "\n",
  );

  it("is redacted whole: every body line, with the header and footer kept", () => {
    const shown = asFileView(file, FILE_VIEWS["claude-code read"]!, 7);
    expect(shown).toContain("     8\u2192-----BEGIN RSA PRIVATE KEY-----");
    const { text, findings } = redact(shown);
    for (const line of body) expect(text).not.toContain(line.slice(0, 16));
    expect(findings.map((f) => f.rule)).toEqual(["private-key"]);
    expect(text).toContain("-----BEGIN RSA PRIVATE KEY-----");
    expect(text).toContain("-----END RSA PRIVATE KEY-----");
  });
});
