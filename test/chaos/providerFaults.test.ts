import { describe, expect, it } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { type LoopbackHandler, startLoopbackServer } from "../helpers/loopbackServer.js";
import { runCli } from "../helpers/runCli.js";
import { completion, sessionIdOf, stage1Answer } from "./support/fakeProvider.js";
import { makeChaosHome } from "./support/home.js";
import { sessionId, writeSessions } from "./support/sessions.js";

type Fault = "timeout" | "hang" | "429" | "500" | "reset" | "truncated" | "refusal" | "schema" | "notjson";
const FAULTS: Fault[] = ["timeout", "hang", "429", "500", "reset", "truncated", "refusal", "schema", "notjson"];
const MAX_ATTEMPTS = 4;
const HOUR = 3_600_000;

/** Every fault the provider can throw at cairn, one per session, for as long as the test runs. */
const faulty: LoopbackHandler = (request, res) => {
  const id = sessionIdOf(request);
  const index = FAULTS.findIndex((_, i) => sessionId(i, 3) === id);
  switch (FAULTS[index]) {
    case "timeout":
      return new Promise(() => undefined); // never answers: the client timeout must fire
    case "hang":
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"choices":[');
      return new Promise(() => undefined); // headers and half a body, then silence
    case "429":
      return { status: 429, headers: { "retry-after": "7200" }, body: { error: { message: "slow down" } } };
    case "500":
      return { status: 503, body: "upstream overloaded" };
    case "reset":
      res.socket?.destroy();
      return undefined;
    case "truncated":
      return { status: 200, body: '{"choices":[{"message":{"content":"{\\"rollout_sum' };
    case "refusal":
      return { body: { choices: [{ message: { content: null, refusal: "I can't help with that." } }] } };
    case "schema":
      return { body: completion(JSON.stringify({ poem: "roses are red", rating: 5 })) };
    case "notjson":
      return { body: completion("Sure! Here is a summary of the session, in prose.") };
    default:
      return { body: completion(stage1Answer(id ?? "?")) };
  }
};

describe("provider faults against a loopback OpenAI-compatible server", () => {
  it("every fault ends in a retry with backoff or a dead job, never a crash or a hot loop", async () => {
    const server = await startLoopbackServer(faulty);
    const home = makeChaosHome("faults");
    writeSessions({ codex: home.codex, claude: home.claude }, { count: FAULTS.length, projects: 2, salt: 3 });
    home.writeConfig({ queue: { maxAttempts: MAX_ATTEMPTS } });
    let now = Date.now();
    const cairn = new Cairn({
      home: home.home,
      env: { HOME: home.userHome },
      clock: () => now,
      importLanes: false,
      config: {
        "llm.provider": "openai",
        "llm.baseUrl": `${server.url}/v1`,
        "llm.model": "fake-model",
        "llm.timeoutMs": 1000,
      },
    });
    try {
      await cairn.scan();
      const rounds: string[][] = [];
      let retryAfterHonoured = false;
      // Bounded: more rounds than attempts, each advancing the clock past any backoff (max 6 h).
      for (let round = 0; round < MAX_ATTEMPTS + 2; round += 1) {
        const report = await cairn.extract();
        rounds.push(report.jobs.map((job) => `${job.sessionId.slice(-2)}:${job.outcome}`));
        if (round === 0) {
          const job = cairn.storage.jobs.get("phase1", sessionId(FAULTS.indexOf("429"), 3));
          retryAfterHonoured = job !== undefined && job.runAfter - now >= 7200 * 1000;
        }
        now += 7 * HOUR;
      }
      const perSession = FAULTS.map((fault, index) => ({
        fault,
        requests: server.requests.filter((request) => sessionIdOf(request) === sessionId(index, 3)).length,
        job: cairn.storage.jobs.get("phase1", sessionId(index, 3)),
      }));
      const status = runCli(["status", "--json"], { env: { CAIRN_HOME: home.home, HOME: home.userHome } });
      expect(status.status, status.stderr).toBe(0);
      const failed = (
        JSON.parse(status.stdout) as { failedJobs: Array<{ key: string; status: string; error: string }> }
      ).failedJobs;
      console.log(
        `[chaos:provider-faults] ${FAULTS.length} faults x ${MAX_ATTEMPTS + 2} rounds, ${server.requests.length} requests: ` +
          perSession.map((entry) => `${entry.fault} ${entry.requests} req -> ${entry.job?.status}`).join(", ") +
          `; Retry-After 7200 s honoured: ${retryAfterHonoured}; ${failed.length} failed/dead jobs in cairn status --json`,
      );
      expect(retryAfterHonoured).toBe(true);
      for (const entry of perSession) {
        // No hot loop: at most one request per attempt.
        expect(entry.requests, entry.fault).toBeLessThanOrEqual(MAX_ATTEMPTS);
        expect(entry.requests, entry.fault).toBeGreaterThanOrEqual(1);
        expect(entry.job?.status, entry.fault).toBe("dead");
        expect(entry.job?.lastError, entry.fault).toBeTruthy();
      }
      // A refusal is not worth repeating: dead after the first answer.
      expect(perSession.find((entry) => entry.fault === "refusal")?.requests).toBe(1);
      expect(failed.map((job) => job.key).sort()).toEqual(FAULTS.map((_, index) => sessionId(index, 3)).sort());
      expect(failed.every((job) => job.status === "dead" && job.error.length > 0)).toBe(true);
    } finally {
      cairn.close();
      await server.close();
    }
  });

  it("the daily token budget holds while requests fail and are retried", async () => {
    let served = 0;
    const server = await startLoopbackServer((request) => {
      served += 1;
      // Every third request fails (no usage reported), the rest cost 500 tokens each.
      if (served % 3 === 0) return { status: 500, body: "flaky" };
      return {
        body: completion(stage1Answer(sessionIdOf(request) ?? "?"), { prompt_tokens: 400, completion_tokens: 100 }),
      };
    });
    const home = makeChaosHome("budget");
    writeSessions({ codex: home.codex, claude: home.claude }, { count: 20, projects: 2, salt: 4 });
    const budget = 3000;
    const concurrency = 2;
    home.writeConfig({
      extraction: { dailyTokenBudget: budget, concurrency },
      queue: { backoffBaseMs: 1000, backoffMaxMs: 5000 },
    });
    // Noon UTC today: ten rounds a minute apart stay inside one budget day.
    const noon = new Date();
    noon.setUTCHours(12, 0, 0, 0);
    let now = noon.getTime();
    const cairn = new Cairn({
      home: home.home,
      env: { HOME: home.userHome },
      clock: () => now,
      importLanes: false,
      config: { "llm.provider": "openai", "llm.baseUrl": `${server.url}/v1`, "llm.model": "fake-model" },
    });
    try {
      await cairn.scan();
      let skipped = 0;
      for (let round = 0; round < 10; round += 1) {
        const report = await cairn.extract();
        skipped += report.jobs.filter((job) => job.outcome === "skipped_budget").length;
        now += 60_000;
      }
      const used = cairn.storage.db.prepare("SELECT tokens_in + tokens_out AS n, calls FROM token_usage").get() as {
        n: number;
        calls: number;
      };
      console.log(
        `[chaos:budget] budget ${budget} tokens, ${server.requests.length} requests (${Math.floor(served / 3)} failed), ${used.n} tokens recorded over ${used.calls} answers, ${skipped} jobs deferred by the budget`,
      );
      // The check happens before each call, so at most `concurrency` calls already in flight can overshoot.
      expect(used.n).toBeLessThanOrEqual(budget + concurrency * 500);
      expect(skipped).toBeGreaterThan(0);
      expect(server.requests.length).toBeLessThan(20);
    } finally {
      cairn.close();
      await server.close();
    }
  });
});
