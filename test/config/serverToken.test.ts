import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.js";
import { assertBindAllowed } from "../../src/server/bindPolicy.js";

const strong = "4e9b0c1d7a2f8e3b6c5d9a0f1e2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b"; // openssl rand -hex 32
const dir = mkdtempSync(join(tmpdir(), "cairn-token-"));
const missing = join(dir, "none.yaml");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the server token has a minimum strength", () => {
  it("refuses a short token in the config file or the environment, saying how to make one", () => {
    const file = join(dir, "config.yaml");
    writeFileSync(file, "server:\n  token: hunter2\n");
    expect(() => loadConfig({ file, env: {} })).toThrow(
      /server\.token is too weak \(7 characters, at least 32 needed\)/,
    );
    expect(() => loadConfig({ file: missing, env: { CAIRN_SERVER_TOKEN: "a".repeat(40) } })).toThrow(
      /too few distinct characters\); make one with: cairn config set server.token "\$\(openssl rand -hex 32\)"/,
    );
  });

  it("never echoes the refused token", () => {
    const file = join(dir, "echo.yaml");
    writeFileSync(file, "server:\n  token: hunter2-weak\n");
    expect(() => loadConfig({ file, env: {} })).toThrow(/^(?!.*hunter2)/s);
  });

  it("accepts a random 32-byte hex token and no token at all", () => {
    expect(loadConfig({ file: missing, env: { CAIRN_SERVER_TOKEN: strong } }).server.token).toBe(strong);
    expect(loadConfig({ file: missing, env: {} }).server.token).toBeUndefined();
  });

  it("cairn serve refuses a weak token however it got there", () => {
    expect(() => assertBindAllowed("0.0.0.0", "s3cret-token")).toThrow(
      /server\.token is too weak.*openssl rand -hex 32/,
    );
    expect(() => assertBindAllowed("127.0.0.1", "s3cret-token")).toThrow(/too weak/);
    expect(() => assertBindAllowed("0.0.0.0", strong)).not.toThrow();
  });
});
