import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { assertBindAllowed, isLoopbackHost } from "../../src/server/bindPolicy.js";
import { startDaemon } from "../../src/server/startDaemon.js";
import type { Timers } from "../../src/workers/scheduler.js";
import { startLoopbackServer } from "../helpers/loopbackServer.js";
import { type TempHome, tempHome } from "./tempHome.js";

let temp: TempHome;
const realHome = process.env.HOME;

beforeAll(() => {
  temp = tempHome();
  // Collection resolves agents' default folders from the home directory: keep it in the temp tree.
  process.env.HOME = temp.root;
});

afterAll(() => {
  process.env.HOME = realHome;
  temp.cleanup();
});

/** A daemon on a random loopback port whose log lines the test reads. */
async function startLogged(cairn: Cairn, timers: Timers) {
  const lines: string[] = [];
  const daemon = await startDaemon({ cairn, host: "127.0.0.1", port: 0, timers, log: (l) => lines.push(l) });
  return { daemon, lines };
}

/** Timers that never fire by themselves: cycles run only when a test triggers them. */
const manualTimers: Timers = { set: () => 0, clear: () => {} };

describe("bind policy", () => {
  it("knows loopback hosts", () => {
    for (const host of ["127.0.0.1", "127.1.2.3", "localhost", "::1", "[::1]"]) expect(isLoopbackHost(host)).toBe(true);
    for (const host of ["0.0.0.0", "192.168.1.4", "::", "example.com"]) expect(isLoopbackHost(host)).toBe(false);
  });

  it("refuses a non-loopback address without a token", async () => {
    expect(() => assertBindAllowed("0.0.0.0", undefined)).toThrow(/refusing to listen on 0.0.0.0/);
    expect(() => assertBindAllowed("0.0.0.0", "")).toThrow(/server.token/);
    expect(() => assertBindAllowed("0.0.0.0", "9f1c2e7a4b8d3f6019e2c5a7b4d8f1e3")).not.toThrow();
    const cairn = new Cairn({ home: temp.home, env: temp.env });
    await expect(startDaemon({ cairn, host: "0.0.0.0", port: 0, schedule: false, log: () => {} })).rejects.toThrow(
      /refusing to listen/,
    );
    cairn.close();
  });
});

describe("cairn serve daemon", () => {
  it("listens on 127.0.0.1, serves JSON and MCP over HTTP, and stops cleanly", async () => {
    const cairn = new Cairn({ home: temp.home, env: temp.env });
    const lines: string[] = [];
    const daemon = await startDaemon({ cairn, host: "127.0.0.1", port: 0, schedule: false, log: (l) => lines.push(l) });
    try {
      expect(daemon.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const health = await fetch(`${daemon.url}/health`);
      expect(await health.json()).toMatchObject({ ok: true });
      const remembered = await fetch(`${daemon.url}/api/memory/remember`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ content: "Deploys go through the staging cluster first", scope: "global" }),
      });
      expect(remembered.status).toBe(200);

      const client = new Client({ name: "cairn-http-test", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${daemon.url}/mcp`)));
      expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual([
        "checkpoint",
        "documents",
        "edit",
        "export",
        "forget",
        "forget_document",
        "import",
        "ingest_document",
        "read",
        "recall",
        "remember",
        "resolve_review",
        "restore",
        "review",
        "status",
      ]);
      const result = (await client.callTool({
        name: "recall",
        arguments: { query: "staging cluster deploys", scope: "global" },
      })) as { content: Array<{ text: string }> };
      expect(result.content[0]?.text).toContain("> Deploys go through the staging cluster first");
      await client.close();
    } finally {
      await daemon.stop();
    }
    expect(lines[0]).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+; no schedule$/);
    expect(lines.at(-1)).toBe("stopped");
    await expect(fetch(`${daemon.url}/health`)).rejects.toThrow();
  });

  it("runs a pipeline cycle on POST /api/run and logs one line for it", async () => {
    const cairn = new Cairn({ home: temp.home, env: temp.env });
    const { daemon, lines } = await startLogged(cairn, manualTimers);
    try {
      const response = await fetch(`${daemon.url}/api/run`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      });
      expect(response.status).toBe(202);
      expect(await response.json()).toEqual({ accepted: true, started: true, queued: false });
      await expect.poll(() => lines.filter((line) => line.includes("pipeline completed")).length).toBe(1);
      const status = (await (await fetch(`${daemon.url}/api/status`)).json()) as { daemon: { lastCycle: unknown } };
      expect(status.daemon.lastCycle).toMatchObject({ outcome: "completed", phase2: expect.any(String) });
    } finally {
      await daemon.stop();
    }
    expect(lines.filter((line) => line.includes("pipeline completed"))).toHaveLength(1);
    expect(lines[0]).toMatch(/; pipeline every 300 s$/);
  });

  it("polls for prospective hints every recall.hints.pollMs when hints are on", async () => {
    const model = await startLoopbackServer((request) =>
      request.path === "/v1/models"
        ? { body: { object: "list", data: [] } }
        : { body: { choices: [{ message: { role: "assistant", content: '{"questions": ["Which port?"]}' } }] } },
    );
    const own = tempHome();
    const scheduled: { fn: () => void; ms: number }[] = [];
    const recording: Timers = { set: (fn, ms) => scheduled.push({ fn, ms }), clear: () => {} };
    const cairn = new Cairn({
      home: own.home,
      env: own.env,
      config: {
        "llm.provider": "openai",
        "llm.baseUrl": `${model.url}/v1`,
        "llm.model": "m",
        "recall.hints.enabled": true,
        "recall.hints.pollMs": 1234,
      },
    });
    await cairn.remember({ content: "The API listens on port 8080", scope: "global" });
    const { daemon, lines } = await startLogged(cairn, recording);
    try {
      // The loops start at once: the pipeline's first, then the hints poll, then the embedding tracker.
      expect(scheduled.map((s) => s.ms)).toEqual([0, 0, 0]);
      scheduled[1]!.fn();
      await expect
        .poll(() => lines.filter((line) => line.startsWith("hints")), { timeout: 5000 })
        .toEqual(["hints 1 indexed, 0 failed, 0 pending"]);
      // The next poll is scheduled at the configured interval.
      await expect.poll(() => scheduled.some((s) => s.ms === 1234)).toBe(true);
    } finally {
      await daemon.stop();
      await model.close();
      own.cleanup();
    }
  });

  it("fills in missing vectors every recall.embeddingTracker.pollMs", async () => {
    const own = tempHome();
    const before = new Cairn({ home: own.home, env: own.env, config: { "embeddings.dimensions": 256 } });
    await before.remember({ content: "The API listens on port 8080", scope: "global" });
    before.close();
    const scheduled: { fn: () => void; ms: number }[] = [];
    const recording: Timers = { set: (fn, ms) => scheduled.push({ fn, ms }), clear: () => {} };
    // Another embedding model: the stored vector is stale.
    const cairn = new Cairn({
      home: own.home,
      env: own.env,
      config: { "embeddings.dimensions": 128, "recall.embeddingTracker.pollMs": 2345 },
    });
    expect(cairn.memories.counts().staleVectors).toBe(1);
    const { daemon, lines } = await startLogged(cairn, recording);
    try {
      expect(scheduled.map((s) => s.ms)).toEqual([0, 0]);
      scheduled[1]!.fn();
      await expect
        .poll(() => lines.filter((line) => line.startsWith("embeddings")))
        .toEqual(["embeddings 1 vectors written"]);
      expect(cairn.memories.counts().staleVectors).toBe(0);
      await expect.poll(() => scheduled.some((s) => s.ms === 2345)).toBe(true);
    } finally {
      await daemon.stop();
      own.cleanup();
    }
  });
});
