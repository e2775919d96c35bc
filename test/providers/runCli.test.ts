import { afterEach, describe, expect, it } from "vitest";
import { runCli } from "../../src/providers/llm/runCli.js";
import { type FakeCli, installFakeCli } from "../helpers/fakeCli.js";
import { waitUntilGone } from "./processes.js";

describe.skipIf(process.platform === "win32")("runCli", () => {
  let fake: FakeCli | undefined;
  afterEach(() => fake?.cleanup());

  const run = (overrides: { timeoutMs?: number; signal?: AbortSignal; killGraceMs?: number } = {}) =>
    runCli({
      provider: "test-cli",
      command: "agent",
      args: ["a"],
      stdin: "input",
      env: fake!.env,
      timeoutMs: 10_000,
      ...overrides,
    });

  it("resolves with the output for any exit status", async () => {
    fake = installFakeCli("agent", { kind: "exit", exitCode: 4, stdout: "out", stderr: "err" });
    expect(await run()).toEqual({ stdout: "out", stderr: "err", exitCode: 4, signal: null });
  });

  it("escalates to SIGKILL when the process ignores SIGTERM", async () => {
    fake = installFakeCli("agent", { kind: "hang", ignoreSigterm: true });
    await expect(run({ timeoutMs: 1_500, killGraceMs: 100 })).rejects.toMatchObject({ kind: "timeout" });
    expect(fake.pids()).toHaveLength(1);
    await waitUntilGone(fake.pids()[0]!);
  });

  it("stops the process and rejects with the caller's reason on abort", async () => {
    fake = installFakeCli("agent", { kind: "hang" });
    const controller = new AbortController();
    const reason = new Error("shutdown");
    const pending = run({ signal: controller.signal });
    while (fake.calls().length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    await waitUntilGone(fake.pids()[0]!);
  });
});
