import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/runCli.js";
import { tempDir } from "../helpers/tempDir.js";

// An opaque value no redaction rule takes for a secret, so it is stored as given.
const TOKEN = "Quokkaglyph7Zeb";

/** Whether cairn.db or its log holds the token's bytes, in any letter case. */
function storeHolds(home: string): boolean {
  return ["cairn.db", "cairn.db-wal"].some((name) => {
    const path = join(home, name);
    if (!existsSync(path)) return false;
    const bytes = readFileSync(path);
    return [TOKEN, TOKEN.toLowerCase()].some((form) => bytes.includes(Buffer.from(form)));
  });
}

/** The CLI on its own home; `remember` and `memory clear` both take the project of the working directory. */
function cli(home: string) {
  const env = { CAIRN_HOME: home, HOME: home };
  return (...args: string[]) => runCli(args, { env });
}

describe("cairn memory clear and purge leave no bytes of the text in the store", () => {
  it("memory clear --yes: the project's memories are gone from cairn.db", () => {
    const home = tempDir("cairn-clear-bytes-");
    const run = cli(home);
    expect(run("remember", `the staging API wants ${TOKEN}`).status).toBe(0);
    expect(storeHolds(home)).toBe(true);

    const cleared = run("memory", "clear", "--yes");
    expect(cleared.stderr).toBe("");
    expect(cleared.status).toBe(0);
    expect(storeHolds(home)).toBe(false);
  }, 120_000);

  it("memory purge --text removes a forgotten and a live memory's text from cairn.db", () => {
    const home = tempDir("cairn-purge-bytes-");
    const run = cli(home);
    const [stored] = JSON.parse(run("remember", `the staging API wants ${TOKEN}`, "--json").stdout) as Array<{
      id: number;
    }>;
    expect(run("memory", "forget", String(stored!.id)).status).toBe(0);
    expect(run("remember", `deploy previews read ${TOKEN} from the vault`).status).toBe(0);
    expect(storeHolds(home)).toBe(true);

    const purged = run("memory", "purge", "--text", TOKEN, "--yes");
    expect(purged.stderr).toBe("");
    expect(purged.stdout).toContain("purged: 2 memories erased");
    expect(storeHolds(home)).toBe(false);
  }, 120_000); // four CLI processes on a busy machine

  it("memory purge deletes nothing without --yes off a terminal, or without an id or --text", () => {
    const home = tempDir("cairn-purge-refused-");
    const run = cli(home);
    expect(run("remember", `the staging API wants ${TOKEN}`).status).toBe(0);

    const refused = run("memory", "purge", "--text", TOKEN);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain("memory purge needs --yes");
    const bare = run("memory", "purge");
    expect(bare.status).not.toBe(0);
    expect(bare.stderr).toContain("a memory id or --text");
    expect(storeHolds(home)).toBe(true);
  }, 120_000);
});
