import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/runCli.js";
import { tempDir } from "../helpers/tempDir.js";

describe("cairn status after the embedding changes", () => {
  it("counts the memories still without a vector of the new embedding, and none once cairn run refreshed them", () => {
    const home = tempDir("cairn-status-embed-");
    const env = { CAIRN_HOME: `${home}/cairn`, HOME: home };
    const hashed = { ...env, CAIRN_EMBEDDINGS_PROVIDER: "hashed" };
    expect(
      runCli(["remember", "Docker images are pushed after every merge", "--scope", "global"], { env: hashed }).status,
    ).toBe(0);
    expect(runCli(["status"], { env: hashed }).stdout).toMatch(/^memories {5}1 live; embedding hashed-v1-384$/m);

    // The default (agent profile) embeds with the word vectors: the stored vector is another model's.
    expect(runCli(["status"], { env }).stdout).toMatch(
      /^memories {5}1 live; embedding wordvec-[0-9a-f]+-384, 1 still without its vector \(cairn run or cairn serve fills them in/m,
    );
    expect(runCli(["run"], { env }).status).toBe(0);
    expect(runCli(["status"], { env }).stdout).toMatch(/^memories {5}1 live; embedding wordvec-[0-9a-f]+-384$/m);
  });

  it("still reports when the embedding provider cannot be built, and says why", () => {
    const home = tempDir("cairn-status-embed-");
    const missing = `${home}/none.bin`;
    const env = {
      CAIRN_HOME: `${home}/cairn`,
      HOME: home,
      CAIRN_EMBEDDINGS_PROVIDER: "wordvec",
      CAIRN_EMBEDDINGS_MODEL: missing,
    };
    const status = runCli(["status"], { env });
    expect(status.status, status.stderr).toBe(0);
    expect(status.stdout).toMatch(
      /^memories {5}0 live; embedding unavailable: cannot read the word vectors at .*none\.bin/m,
    );
  });
});
