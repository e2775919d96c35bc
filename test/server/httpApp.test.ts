import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { createHttpApp } from "../../src/server/createHttpApp.js";
import { type TempHome, tempHome, writeSummary } from "./tempHome.js";

let temp: TempHome;
let cairn: Cairn;

beforeAll(() => {
  temp = tempHome();
  cairn = new Cairn({ home: temp.home, env: temp.env });
});

afterAll(() => {
  cairn.close();
  temp.cleanup();
});

const json = (body: unknown, headers: Record<string, string> = {}) => ({
  method: "POST",
  headers: { "content-type": "application/json", ...headers },
  body: typeof body === "string" ? body : JSON.stringify(body),
});

describe("HTTP API routes", () => {
  it("answers health and status", async () => {
    const app = createHttpApp({ cairn, daemonStatus: () => ({ running: false }) });
    const health = await app.request("/health");
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ ok: true });
    const status = await app.request("/api/status");
    expect(status.status).toBe(200);
    const body = (await status.json()) as Record<string, unknown>;
    expect(body).toHaveProperty("jobs");
    expect(body).toHaveProperty("failedJobs");
    expect(body).toHaveProperty("phase2.watermark");
    expect(body.daemon).toEqual({ running: false });
  });

  it("remembers and recalls for a project", async () => {
    const app = createHttpApp({ cairn });
    const remembered = await app.request(
      "/api/memory/remember",
      json({ content: "The integration tests run with npm run test:integration", cwd: temp.project, ref: "t1" }),
    );
    expect(remembered.status).toBe(200);
    expect(await remembered.json()).toMatchObject({ results: [{ status: "created" }] });
    const items = await app.request(
      "/api/memory/remember",
      json({ items: [{ content: "Prefers tabs over spaces in Makefiles" }], scope: "global" }),
    );
    expect(await items.json()).toMatchObject({ results: [{ status: "created" }] });

    const recalled = await app.request(
      "/api/memory/recall",
      json({ query: "integration tests npm", cwd: temp.project, k: 5 }),
    );
    expect(recalled.status).toBe(200);
    const body = (await recalled.json()) as { results: Array<{ content: string; ref: string | null }> };
    expect(body.results[0]).toMatchObject({
      content: "The integration tests run with npm run test:integration",
      ref: "t1",
    });
  });

  it("recalls with the memories a result replaced when includeSuperseded is set", async () => {
    const app = createHttpApp({ cairn });
    const [old] = await cairn.remember({ content: "Staging deploys need the VPN profile acme-old", scope: "global" });
    const [current] = await cairn.remember({ content: "Staging deploys need the VPN profile acme-2", scope: "global" });
    cairn.memories.supersede(old!.id!, current!.id!);
    const query = { query: "staging deploys VPN profile", scope: "global" };
    const plain = (await (await app.request("/api/memory/recall", json(query))).json()) as {
      results: Array<{ id: number; superseded?: unknown }>;
    };
    expect(plain.results.map((r) => r.id)).toEqual([current!.id]);
    expect(plain.results[0]!.superseded).toBeUndefined();
    const withOld = await app.request("/api/memory/recall", json({ ...query, includeSuperseded: true }));
    expect(withOld.status).toBe(200);
    const body = (await withOld.json()) as { results: Array<{ id: number; superseded?: unknown[] }> };
    expect(body.results.map((r) => r.id)).toEqual([current!.id]);
    expect(body.results[0]!.superseded).toEqual([
      {
        id: old!.id,
        content: "Staging deploys need the VPN profile acme-old",
        type: "fact",
        supersededAt: expect.any(Number),
        supersededBy: current!.id,
      },
    ]);
  });

  it("injects the project's memory for a cwd", async () => {
    writeSummary(temp.home, { cwd: temp.project }, "- Build with make, not npm.");
    const app = createHttpApp({ cairn });
    const response = await app.request("/api/inject", json({ cwd: temp.project }));
    expect(response.status).toBe(200);
    const body = (await response.json()) as { text: string; project: { included: boolean } };
    expect(body.project.included).toBe(true);
    expect(body.text).toContain("Build with make, not npm.");
  });

  it("reads memory:// URLs and maps resolver errors to 400 and 404", async () => {
    writeSummary(temp.home, { cwd: temp.project }, "- Summary line.");
    const app = createHttpApp({ cairn });
    const ok = await app.request("/api/read", json({ url: "memory://root", cwd: temp.project }));
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { content: string }).content).toContain("Summary line.");
    const traversal = await app.request("/api/read", json({ url: "memory://root/%2e%2e/x", cwd: temp.project }));
    expect(traversal.status).toBe(400);
    expect(((await traversal.json()) as { error: string }).error).toMatch(/not allowed/);
    const missing = await app.request("/api/read", json({ url: "memory://root/MEMORY.md", cwd: temp.project }));
    expect(missing.status).toBe(404);
    expect(await missing.json()).toHaveProperty("error");
  });

  it("rejects bad input with 400 naming the field", async () => {
    const app = createHttpApp({ cairn });
    const cases: Array<[unknown, RegExp]> = [
      [{ cwd: temp.project }, /^query is required$/],
      [{ query: "x", querry: "y", cwd: temp.project }, /unknown field querry/],
      [{ query: "x" }, /^cwd is required when scope is project/],
      [{ query: "x", cwd: "relative/dir" }, /^cwd must be an absolute path$/],
      [{ query: "x", k: 0, cwd: temp.project }, /^k must be at least 1; got 0$/],
      [{ query: 5, cwd: temp.project }, /^query must be a string; got a number$/],
      [{ query: "x", includeSuperseded: "yes", cwd: temp.project }, /^includeSuperseded must be a boolean/],
      [[1, 2], /^request must be an object; got an array$/],
    ];
    for (const [body, message] of cases) {
      const response = await app.request("/api/memory/recall", json(body));
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(((await response.json()) as { error: string }).error).toMatch(message);
    }
    const both = await app.request(
      "/api/memory/remember",
      json({ content: "a", items: [{ content: "b" }], scope: "g" }),
    );
    expect(((await both.json()) as { error: string }).error).toMatch(/^content or items is required/);
    const notJson = await app.request("/api/memory/recall", json("{not json"));
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toEqual({ error: "request body is not valid JSON" });
  });

  it("requires a JSON content type on POST (no cross-origin form posts)", async () => {
    const app = createHttpApp({ cairn });
    const response = await app.request("/api/memory/remember", {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: JSON.stringify({ content: "poison", scope: "global" }),
    });
    expect(response.status).toBe(415);
  });

  it("limits the request body size", async () => {
    const app = createHttpApp({ cairn, maxBodyBytes: 1024 });
    const response = await app.request("/api/memory/recall", json({ query: "x".repeat(2000), cwd: temp.project }));
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: string }).error).toMatch(/larger than 1024 bytes/);
  });

  it("triggers a run with 202, or 503 without a scheduler", async () => {
    const without = createHttpApp({ cairn });
    expect((await without.request("/api/run", json({}))).status).toBe(503);
    let triggered = 0;
    const app = createHttpApp({
      cairn,
      triggerRun: () => {
        triggered += 1;
        return { started: true, queued: false };
      },
    });
    const response = await app.request("/api/run", json({}));
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ accepted: true, started: true, queued: false });
    expect(triggered).toBe(1);
  });

  it("queues dead jobs again on {retryDead: true}, says how many, and counts them in the status before", async () => {
    const { jobs } = cairn.storage;
    jobs.enqueue({ kind: "phase1", key: "s-dead" });
    const [lease] = jobs.claim({ kind: "phase1" });
    jobs.fail(lease!, "refused", { retryable: false });
    const app = createHttpApp({ cairn, triggerRun: () => ({ started: true, queued: false }) });
    const status = (await (await app.request("/api/status")).json()) as { dead: unknown };
    expect(status.dead).toEqual({ jobs: 1, byKind: { phase1: 1 }, retry: "cairn run --retry-dead" });
    expect((await app.request("/api/run", json({ retryDead: "yes" }))).status).toBe(400);
    expect(jobs.get("phase1", "s-dead")?.status).toBe("dead");
    const response = await app.request("/api/run", json({ retryDead: true }));
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ accepted: true, started: true, queued: false, retried: { phase1: 1 } });
    expect(jobs.get("phase1", "s-dead")).toMatchObject({ status: "pending", attempts: 0 });
  });

  it("sends no CORS headers and answers unknown routes with JSON 404", async () => {
    const app = createHttpApp({ cairn });
    const response = await app.request("/health", { headers: { origin: "https://evil.example" } });
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
    const preflight = await app.request("/api/memory/remember", {
      method: "OPTIONS",
      headers: { origin: "https://evil.example", "access-control-request-method": "POST" },
    });
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
    const missing = await app.request("/api/nothing");
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: "no route GET /api/nothing" });
  });

  it("refuses Host names other than loopback ones when asked to (DNS rebinding)", async () => {
    const app = createHttpApp({ cairn, allowedHostNames: ["localhost", "127.0.0.1", "[::1]"] });
    expect((await app.request("http://127.0.0.1:7077/health")).status).toBe(200);
    const rebound = await app.request("http://127.0.0.1:7077/api/status", { headers: { host: "evil.example:7077" } });
    expect(rebound.status).toBe(403);
  });
});

describe("HTTP API token rule", () => {
  it("requires the bearer token on every route but /health", async () => {
    const app = createHttpApp({ cairn, token: "s3cret-token" });
    expect((await app.request("/health")).status).toBe(200);
    const none = await app.request("/api/status");
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(await none.json()).toEqual({ error: "missing or wrong bearer token" });
    expect((await app.request("/api/status", { headers: { authorization: "Bearer wrong" } })).status).toBe(401);
    expect((await app.request("/api/status", { headers: { authorization: "Basic s3cret-token" } })).status).toBe(401);
    const right = await app.request("/api/status", { headers: { authorization: "Bearer s3cret-token" } });
    expect(right.status).toBe(200);
    const post = await app.request(
      "/api/read",
      json({ url: "memory://global/x.md" }, { authorization: "Bearer wrong" }),
    );
    expect(post.status).toBe(401);
    const mcp = await app.request("/mcp", json({ jsonrpc: "2.0", id: 1, method: "tools/list" }));
    expect(mcp.status).toBe(401);
  });
});
