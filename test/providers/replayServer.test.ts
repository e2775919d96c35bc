import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startReplayServer } from "../../bench/lib/replayServer.js";
import { quoteAsData } from "../../src/prompts/quoteAsData.js";
import { OpenAiProvider } from "../../src/providers/llm/openai.js";
import { ProviderError } from "../../src/providers/llm/types.js";
import { tempDir } from "../helpers/tempDir.js";

// The stand-in harness (bench/model-standin.ts) replays answers written for cairn's own requests: the
// same request in a later run must find its answer although its data boundary and the evaluator's
// temporary folder changed, and a request without one must be saved whole for someone to answer.
describe("the stand-in model's replay server", () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it("saves an unanswered request, then answers it in a later run whose boundary and run folder differ", async () => {
    const root = tempDir();
    const dirs = { answersDir: join(root, "answers"), pendingDir: join(root, "pending"), logFile: join(root, "log") };
    const server = await startReplayServer(dirs);
    close = server.close;
    const llm = new OpenAiProvider({ baseUrl: server.baseUrl, model: "standin", apiKey: "none" });
    const request = (runDir: string) => ({
      system: "Summarise the session.",
      prompt: `Session in ${runDir}/home/project:\n${quoteAsData("SESSION DATA", [{ id: 1, text: "hello" }])}`,
      jsonSchema: { name: "stage1_memory", schema: { type: "object" } },
    });

    const first = await llm.generate(request("/tmp/cairn-session-quality-AbC123")).catch((error: unknown) => error);
    expect(first).toBeInstanceOf(ProviderError);
    expect((first as ProviderError).statusCode).toBe(503);
    const [seen] = server.requests;
    expect(seen).toMatchObject({ kind: "stage1", answered: false });
    const pending = JSON.parse(readFileSync(join(dirs.pendingDir, `${seen!.hash}.json`), "utf8"));
    expect(pending.request.messages[1].content).toContain('"text":"hello"');

    writeFileSync(join(dirs.answersDir, `${seen!.hash}.json`), JSON.stringify({ rollout_summary: "said hello" }));
    const second = await llm.generate(request("/private/var/tmp/cairn-session-quality-XyZ789"));
    expect(JSON.parse(second.text)).toEqual({ rollout_summary: "said hello" });
    expect(server.requests[1]).toMatchObject({ hash: seen!.hash, answered: true });
    expect(readFileSync(dirs.logFile, "utf8").trim().split("\n")).toHaveLength(2);
  });

  it("tells requests apart by their data, not only by their instructions", async () => {
    const root = tempDir();
    const dirs = { answersDir: join(root, "answers"), pendingDir: join(root, "pending"), logFile: join(root, "log") };
    const server = await startReplayServer(dirs);
    close = server.close;
    const llm = new OpenAiProvider({ baseUrl: server.baseUrl, model: "standin", apiKey: "none" });
    const ask = (text: string) =>
      llm
        .generate({
          system: "Classify.",
          prompt: quoteAsData("MEMORY DATA", { text }),
          jsonSchema: { name: "structural_classify", schema: { type: "object" } },
        })
        .catch(() => undefined);
    await ask("one");
    await ask("two");
    const [a, b] = server.requests;
    expect(a!.kind).toBe("structural");
    expect(a!.hash).not.toBe(b!.hash);
    expect(existsSync(join(dirs.pendingDir, `${b!.hash}.json`))).toBe(true);
  });
});
