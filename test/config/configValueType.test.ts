import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { setConfigValue } from "../../src/config/load.js";
import { tempDir } from "../helpers/tempDir.js";

// `cairn config set` with a value of the wrong kind: the line says what to type, not zod's
// "Invalid input: expected boolean, received string".

describe("config set with a value of the wrong type", () => {
  it.each([
    ["memories.enabled", "yes", 'config: memories.enabled = "yes" must be true or false'],
    ["recall.maxK", "abc", 'config: recall.maxK = "abc" must be a number'],
    ["recall.maxK", "12.5", "config: recall.maxK = 12.5 must be a whole number"],
    [
      "memories.exclude",
      "vendor/**",
      `config: memories.exclude = "vendor/**" must be a list, such as '["one", "two"]'`,
    ],
    ["server.host", "5", "config: server.host = 5 must be a text"],
  ])("%s %s: says what the value must be, and the file is unchanged", (key, value, message) => {
    const file = join(tempDir("cairn-config-type-"), "config.yaml");
    const before = "memories:\n  enabled: false\n";
    writeFileSync(file, before);
    let thrown: unknown;
    try {
      setConfigValue(file, key, value);
    } catch (error) {
      thrown = error;
    }
    expect((thrown as Error | undefined)?.message).toBe(message);
    expect(readFileSync(file, "utf8")).toBe(before);
  });
});
