import { describe, expect, it } from "vitest";
import { RULES, redact, redactDeep, redactText } from "../../src/redact/index.js";
import { adversarialInputs } from "./adversarial.js";
import { readLabelled, readTrickyNegatives, sampleOrdinaryLines } from "./corpus.js";

const labelled = readLabelled();
const ruleNames = new Set(RULES.map((rule) => rule.name));

describe("labelled secrets (test/fixtures/secrets/secrets.jsonl)", () => {
  it("has at least 150 examples, each labelled with an existing rule", () => {
    expect(labelled.length).toBeGreaterThanOrEqual(150);
    for (const example of labelled) {
      expect(example.secrets.length, `line ${example.line}`).toBeGreaterThan(0);
      for (const secret of example.secrets) expect(example.text).toContain(secret);
      if (example.rule !== undefined) expect(ruleNames, `line ${example.line}`).toContain(example.rule);
    }
  });

  it("has an example for every rule", () => {
    const covered = new Set(labelled.map((example) => example.rule));
    expect([...ruleNames].filter((name) => !covered.has(name))).toEqual([]);
  });

  it.each(labelled.map((example) => [example.line, example] as const))(
    "removes every secret of line %i",
    (_, example) => {
      const result = redact(example.text);
      for (const secret of example.secrets) expect(result.text).not.toContain(secret);
      if (example.rule !== undefined) expect(result.findings.map((f) => f.rule)).toContain(example.rule);
    },
  );

  it("removes them from JSON-serialized text too, and keeps the JSON valid", () => {
    for (const example of labelled) {
      const serialized = JSON.stringify({ role: "user", content: example.text });
      const result = redactText(serialized);
      expect(() => JSON.parse(result), `line ${example.line}`).not.toThrow();
      for (const secret of example.secrets) expect(result).not.toContain(JSON.stringify(secret).slice(1, -1));
    }
  });

  it("reports findings that are in order, disjoint, and cover what was replaced", () => {
    for (const example of labelled) {
      const { text, findings } = redact(example.text);
      let rebuilt = "";
      let cursor = 0;
      for (const finding of findings) {
        expect(finding.start).toBeGreaterThanOrEqual(cursor);
        expect(finding.end).toBeGreaterThan(finding.start);
        rebuilt += `${example.text.slice(cursor, finding.start)}[REDACTED:${finding.rule}]`;
        cursor = finding.end;
      }
      expect(rebuilt + example.text.slice(cursor)).toBe(text);
    }
  });
});

describe("ordinary text", () => {
  // A false-positive rate over 2,000 node_modules lines: mutation testing skips it (and its twin in
  // fileViews.test.ts), since every mutant of redact() that no other test kills would run it, a large
  // part of the run's time; the tricky negatives below are the ordinary lines that catch a mistake.
  it.skipIf(process.env.CAIRN_MUTATION_RUN === "1")("changes fewer than 1% of lines sampled from node_modules", () => {
    const sample = sampleOrdinaryLines();
    expect(sample.lines.length).toBeGreaterThanOrEqual(2_000);
    const changed = sample.lines.filter((line) => redactText(line) !== line);
    expect(changed.length / sample.lines.length).toBeLessThan(0.01);
  });

  it("changes no line of the tricky negatives (test/fixtures/secrets/ordinary.txt)", () => {
    const lines = readTrickyNegatives();
    expect(lines.length).toBeGreaterThan(150);
    expect(lines.filter((line) => redactText(line) !== line)).toEqual([]);
  });

  it("returns the very same string when nothing is found", () => {
    const line = "const total = items.reduce((sum, item) => sum + item.price, 0);";
    expect(redact(line)).toEqual({ text: line, findings: [] });
  });
});

describe("markers", () => {
  it("keep the context around the secret", () => {
    expect(redactText("password=hunter2x")).toBe("password=[REDACTED:password-assignment]");
    expect(redactText("postgres://user:pass@host:5432/db")).toBe(
      "postgres://user:[REDACTED:url-password]@host:5432/db",
    );
    expect(redactText('curl -H "Authorization: Bearer 9fQ2kLx81mZ0pAq7"')).toBe(
      'curl -H "Authorization: Bearer [REDACTED:bearer-token]"',
    );
  });

  it("leave earlier markers alone and redact a secret right after or right before one", () => {
    const token = `ghp_${"a1B2c3D4e5".repeat(3)}a1B2c3`;
    const { text, findings } = redact(`[REDACTED:private]${token} and ${token} [REDACTED:private]`);
    expect(text).toBe("[REDACTED:private][REDACTED:github-token] and [REDACTED:github-token] [REDACTED:private]");
    expect(findings.map(({ start, end }) => [start, end])).toEqual([
      [18, 58],
      [63, 103],
    ]);
  });

  it("take a token glued to a word only when it looks generated", () => {
    for (const glue of ["_", "-"]) {
      const word = `model = load${glue}hf_AutoModelForCausalLMWithValueHead()`;
      expect(redactText(word)).toBe(word);
      expect(redactText(`token${glue}hf_a8Fk2pQz9Lm3Xw7Rt5Yb1a8Fk2pQz9Lm`)).toBe(
        `token${glue}[REDACTED:huggingface-token]`,
      );
    }
  });

  it("cover the union of overlapping matches, under the most specific rule's name", () => {
    const token = "ghp_R7kW2pQ9xZ4mN8vB3cL6tY1hJ5gF0dS2aE7u";
    // The assignment's value runs one character past the token: none of it may stay.
    expect(redact(`export GITHUB_TOKEN=${token}x`)).toEqual({
      text: "export GITHUB_TOKEN=[REDACTED:github-token]",
      findings: [{ rule: "github-token", start: 20, end: 61 }],
    });
    expect(redactText(`password=${token}`)).toBe("password=[REDACTED:github-token]");
  });

  it("leave a backslash that ends a value in JSON outside the marker, so the JSON stays valid", () => {
    for (const tail of ["\\", "\\\\", "\\x"]) {
      const json = JSON.stringify({ c: `password=Tr0ub4dor3x${tail}` });
      const out = redactText(json);
      expect(out).not.toContain("Tr0ub4dor3x");
      expect(() => JSON.parse(out)).not.toThrow();
    }
    expect(redactText(JSON.stringify({ c: "x\\ghp_R7kW2pQ9xZ4mN8vB3cL6tY1hJ5gF0dS2aE7u" }))).toBe(
      '{"c":"x\\\\[REDACTED:github-token]"}',
    );
  });

  it("name the most specific rule when several match", () => {
    const token = `ghp_${"a1B2c3D4e5".repeat(3)}a1B2c3`;
    expect(redactText(`GITHUB_TOKEN=${token}`)).toBe("GITHUB_TOKEN=[REDACTED:github-token]");
  });
});

describe("Codex's redact_secrets patterns (reference/codex.md §1.7)", () => {
  // Each of Codex's four regexes, on a value it matches; ours must redact at least as much.
  it.each([
    ["sk-", "use sk-a8Fk2pQz9Lm3Xw7Rt5Yb1 for now", "a8Fk2pQz9Lm3Xw7Rt5Yb1"],
    ["AKIA", "id AKIA2E4G6J8L0N2P4R6T here", "AKIA2E4G6J8L0N2P4R6T"],
    ["Bearer", "Authorization: Bearer a8Fk2pQz9Lm3Xw7R", "a8Fk2pQz9Lm3Xw7R"],
    ["api_key", "api_key=a8Fk2pQz9Lm3", "a8Fk2pQz9Lm3"],
    ["token", 'token: "a8Fk2pQz9Lm3"', "a8Fk2pQz9Lm3"],
    ["secret", "secret = 'a8Fk2pQz9Lm3'", "a8Fk2pQz9Lm3"],
    ["password", "password=hunter22x", "hunter22x"],
  ])("%s", (_, text, secret) => {
    expect(redactText(text)).not.toContain(secret);
  });
});

describe("idempotence", () => {
  it("changes nothing when run on its own output", () => {
    const texts = [...labelled.map((example) => example.text), ...readTrickyNegatives()];
    for (const text of texts) {
      const once = redactText(text);
      expect(redact(once)).toEqual({ text: once, findings: [] });
    }
  });
});

describe("redactDeep", () => {
  const token = "sk-ant-api03-Zx81mZ0pAq7Lk2Jd9Ws4Pq0Rt6Yu1Io3";

  it("redacts strings at any depth, keys included, and keeps other values", () => {
    const input = {
      role: "user",
      count: 3,
      ok: true,
      none: null,
      items: [{ text: `key ${token}` }, "plain", 7],
      headers: { Authorization: "Bearer 9fQ2kLx81mZ0pAq7" },
      [token]: "a map keyed by token",
    };
    expect(redactDeep(input)).toEqual({
      role: "user",
      count: 3,
      ok: true,
      none: null,
      items: [{ text: "key [REDACTED:anthropic-api-key]" }, "plain", 7],
      headers: { Authorization: "Bearer [REDACTED:bearer-token]" },
      "[REDACTED:anthropic-api-key]": "a map keyed by token",
    });
  });

  it("does not mutate its input", () => {
    const input = { a: [`token=${token}`], b: { c: `password: ${token}` } };
    const before = structuredClone(input);
    redactDeep(input);
    expect(input).toEqual(before);
  });

  it("handles plain strings, primitives, a __proto__ key and cycles", () => {
    expect(redactDeep(`x ${token}`)).toBe("x [REDACTED:anthropic-api-key]");
    expect(redactDeep(42)).toBe(42);
    expect(redactDeep(undefined)).toBeUndefined();
    const parsed = JSON.parse(`{"__proto__": {"t": "${token}"}}`) as Record<string, unknown>;
    const copy = redactDeep(parsed);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(copy, "__proto__")?.value).toEqual({ t: "[REDACTED:anthropic-api-key]" });
    const cyclic: { self?: unknown; t: string } = { t: token };
    cyclic.self = cyclic;
    const out = redactDeep(cyclic);
    expect(out.self).toBe(out);
    expect(out.t).toBe("[REDACTED:anthropic-api-key]");
  });
});

describe("redactDeep on values that are not plain JSON", () => {
  const token = "sk-ant-api03-Zx81mZ0pAq7Lk2Jd9Ws4Pq0Rt6Yu1Io3";

  it("copies objects without a prototype and keeps class instances as they are", () => {
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { t: token });
    const copy = redactDeep(bare);
    expect(Object.getPrototypeOf(copy)).toBeNull();
    expect(copy.t).toBe("[REDACTED:anthropic-api-key]");
    const when = new Date(0);
    const url = new URL(`https://example.com/?key=${token}`);
    const out = redactDeep({ when, url });
    expect(out.when).toBe(when);
    expect(out.url).toBe(url);
  });

  it("copies an array that holds itself once, and keeps a __proto__ key an ordinary key", () => {
    const list: unknown[] = [token];
    list.push(list);
    const copy = redactDeep(list);
    expect(copy[0]).toBe("[REDACTED:anthropic-api-key]");
    expect(copy[1]).toBe(copy);
    const parsed = redactDeep(JSON.parse(`{"__proto__": "${token}", "b": 1}`) as object);
    expect(JSON.stringify(parsed)).toBe('{"__proto__":"[REDACTED:anthropic-api-key]","b":1}');
    expect(Object.getOwnPropertyDescriptor(parsed, "__proto__")).toMatchObject({ writable: true, configurable: true });
  });
});

// Mutation testing (vitest.mutation.config.ts) skips these: instrumented code runs several times
// slower, and the rules, whose patterns are what backtracks, are not mutated.
describe.skipIf(process.env.CAIRN_MUTATION_RUN === "1")("adversarial input", () => {
  // Only completion is asserted (timing belongs to bench/redaction.ts): a super-linear rule turns
  // these 1 MB lines into minutes and the test times out.
  it("finishes on 1 MB lines built to trigger backtracking", () => {
    for (const input of adversarialInputs(1_000_000)) expect(typeof redactText(input.text), input.name).toBe("string");
  });

  it("finishes on every keyword in every shape (64 KB each)", () => {
    for (const input of adversarialInputs(64_000, true))
      expect(typeof redactText(input.text), input.name).toBe("string");
  });
});

describe("formats a probe found missing (each once passed through unredacted)", () => {
  const bcrypt = `$2y$10$${"aB3./cD4eF".repeat(5)}xyz`;
  it.each([
    ["mysql -u root -pS3cr3tPass -P3306 shop", "mysql -u root -p[REDACTED:mysql-password] -P3306 shop"],
    ["mysqldump --password=S3cr3tPass shop", "mysqldump --password=[REDACTED:cli-secret-flag] shop"],
    [`deploy:${bcrypt}`, "deploy:[REDACTED:password-hash]"],
    ["ci:{SHA}W6ph5Mm5Pz8GgiULbPgzG37mj9g=", "ci:[REDACTED:password-hash]"],
    [
      "creds = {'private_key_id': 'a1b044da05ca4ed81004c1dec8ee162646ffa920'}",
      "creds = {'private_key_id': '[REDACTED:gcp-private-key-id]'}",
    ],
    ["private_key_id: a1b044da05ca4ed81004c1dec8ee162646ffa920", "private_key_id: [REDACTED:gcp-private-key-id]"],
    // An `&` inside a bare value is part of it (its tail leaked); one that starts a parameter is not.
    ["The staging db password: Tr0ub4dor&3xx", "The staging db password: [REDACTED:password-assignment]"],
    ["PASSWORD=a&b&c9xyzQ", "PASSWORD=[REDACTED:password-assignment]"],
    [
      "curl 'https://x.io/login?user=bob&password=Tr0ub4dor3xx&next=/home'",
      "curl 'https://x.io/login?user=bob&password=[REDACTED:password-assignment]&next=/home'",
    ],
    ["password=Sup3rS3cret&amp;user=bob", "password=[REDACTED:password-assignment]&amp;user=bob"],
  ])("%s", (input, expected) => {
    expect(redactText(input)).toBe(expected);
  });

  it.each(["mysql -u root -p", "mysql -h db -P3306 -u app -p shop", "mysql -u root -p$MYSQL_PWD", "mkdir -p build"])(
    "leaves %j alone",
    (line) => expect(redactText(line)).toBe(line),
  );
});
