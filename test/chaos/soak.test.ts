import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleCli, spawnCli } from "./support/cliBundle.js";
import { type FakeProvider, startFakeProvider } from "./support/fakeProvider.js";
import { chaosEnv, makeChaosHome } from "./support/home.js";
import { inspectStore } from "./support/inspect.js";
import { sessionId, writeCodexSession } from "./support/sessions.js";
import { waitFor } from "./support/waitFor.js";

/**
 * A long-running daemon under a steady stream of new sessions (bounded: about 40 s). RSS is sampled
 * from /proc and responsiveness is measured from outside as /health latency while cycles run.
 */
const SOAK_MS = 40_000;

describe("daemon soak", () => {
  let provider: FakeProvider;
  beforeAll(async () => {
    provider = await startFakeProvider(() => 20 + Math.random() * 60);
  });
  afterAll(async () => provider.close());

  it("keeps RSS flat and answers /health promptly while sessions keep arriving", async () => {
    const main = bundleCli();
    const home = makeChaosHome("soak");
    home.writeConfig({ collection: { scanIntervalSeconds: 5 }, consolidation: { mode: "offline" } });
    const env = chaosEnv(home, provider.baseUrl);
    const daemon = spawnCli(main, ["serve", "--port", "0"], env);
    let stderr = "";
    daemon.child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    try {
      const url = await waitFor(() => /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr)?.[1], 15_000);
      const started = Date.now();
      const rss: number[] = [];
      const latencies: number[] = [];
      let written = 0;
      while (Date.now() - started < SOAK_MS) {
        // A new session every ~400 ms, as agents finishing turns would produce.
        writeCodexSession(home.codex, {
          id: sessionId(written, 42),
          cwd: `/srv/soak/project-${written % 3}`,
          at: Date.UTC(2026, 9, 1) + written * 60_000,
          turns: [
            [`Please update module ${written}; always run pnpm test.`, `Updated module ${written}; tests pass.`],
            [`Also document module ${written}.`, "Documented."],
            ["Thanks.", "You're welcome."],
          ],
        });
        written += 1;
        const before = performance.now();
        const response = await fetch(`${url}/health`);
        latencies.push(performance.now() - before);
        expect(response.status).toBe(200);
        const status = readFileSync(`/proc/${daemon.child.pid}/status`, "utf8");
        rss.push(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
        await new Promise((resolve) => setTimeout(resolve, 400));
      }
      daemon.child.kill("SIGTERM");
      const exit = await daemon.exited;
      const store = inspectStore(join(home.home, "cairn.db"));
      const settled = rss.slice(Math.floor(rss.length / 4));
      const growth = Math.max(...settled) - Math.min(...settled);
      const worst = Math.max(...latencies);
      const sorted = [...latencies].sort((a, b) => a - b);
      console.log(
        `[chaos:soak] ${Math.round(SOAK_MS / 1000)} s, ${written} sessions written, ${store.sessions} stored, ${store.outputs} extracted; ` +
          `RSS ${Math.round(Math.min(...rss))}-${Math.round(Math.max(...rss))} MB (growth after warm-up ${Math.round(growth)} MB); ` +
          `/health p50 ${Math.round(sorted[Math.floor(sorted.length / 2)]!)} ms, worst ${Math.round(worst)} ms; exit ${exit.code ?? exit.signal}`,
      );
      expect(exit.code).toBe(0);
      expect(store.integrity).toBe("ok");
      expect(store.sessions).toBeGreaterThan(written / 2);
      expect(growth).toBeLessThan(80);
      expect(worst).toBeLessThan(3000);
    } finally {
      daemon.child.kill("SIGKILL");
    }
  });
});
