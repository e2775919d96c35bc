import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { connect } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { OllamaEmbeddingProvider } from "../../src/providers/embeddings/ollamaEmbedding.js";
import { OpenAiEmbeddingProvider } from "../../src/providers/embeddings/openaiEmbedding.js";
import { OpenAiProvider } from "../../src/providers/llm/openai.js";
import { json, type LoopbackServer, startLoopbackServer } from "../helpers/loopbackServer.js";

/**
 * A tiny forwarding proxy on 127.0.0.1 that records what it was asked for: CONNECT tunnels (what
 * undici's ProxyAgent uses by default) and absolute-form requests (what a plain HTTP proxy gets).
 */
async function startProxy() {
  const seen: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const target = new URL(req.url ?? "");
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method: req.method,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  server.on("connection", (socket) => sockets.add(socket));
  server.on("connect", (req, client: Socket, head) => {
    seen.push(`CONNECT ${req.url}`);
    const [host, port] = (req.url ?? "").split(":");
    const upstream = connect(Number(port), host, () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on("error", () => client.destroy());
    client.on("error", () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const PROXY_VARIABLES = ["HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy", "NO_PROXY", "no_proxy"];

let target: LoopbackServer;
let proxy: Awaited<ReturnType<typeof startProxy>>;
beforeAll(async () => {
  target = await startLoopbackServer((request) =>
    request.path === "/v1/chat/completions"
      ? json({ choices: [{ message: { content: "hi" } }] })
      : request.path === "/v1/embeddings"
        ? json({ data: [{ index: 0, embedding: [1, 0] }] })
        : json({ embeddings: [[1, 0]] }),
  );
  proxy = await startProxy();
});
afterAll(async () => {
  await proxy.close();
  await target.close();
});
afterEach(() => {
  for (const name of PROXY_VARIABLES) delete process.env[name];
  proxy.seen.length = 0;
  target.requests.length = 0;
});

/** One LLM call and both HTTP embedding calls against the target. */
async function callEveryKind() {
  await new OpenAiProvider({ baseUrl: `${target.url}/v1`, apiKey: "k" }).generate({ system: "s", prompt: "p" });
  await new OpenAiEmbeddingProvider({ baseUrl: target.url, model: "m", dimensions: 2 }).embed(["a"]);
  await new OllamaEmbeddingProvider({ baseUrl: target.url, model: "m", dimensions: 2 }).embed(["a"]);
}

const host = () => new URL(target.url).host;

describe("proxy variables", () => {
  it("sends LLM and embedding calls through HTTP_PROXY", async () => {
    process.env.HTTP_PROXY = proxy.url;
    await callEveryKind();
    expect(target.requests.map((r) => r.path)).toEqual(["/v1/chat/completions", "/v1/embeddings", "/api/embed"]);
    // A reused tunnel carries several calls, so count that the proxy saw the target, not one line per call.
    expect(proxy.seen.length).toBeGreaterThan(0);
    expect(proxy.seen.every((line) => line.includes(host()))).toBe(true);
  });

  it("honours the lowercase name too", async () => {
    process.env.http_proxy = proxy.url;
    await callEveryKind();
    expect(proxy.seen.length).toBeGreaterThan(0);
  });

  it("goes direct for a host in NO_PROXY", async () => {
    process.env.HTTP_PROXY = proxy.url;
    process.env.NO_PROXY = "127.0.0.1";
    await callEveryKind();
    expect(target.requests).toHaveLength(3);
    expect(proxy.seen).toEqual([]);
  });

  it("goes direct when no proxy variable is set", async () => {
    await callEveryKind();
    expect(target.requests).toHaveLength(3);
    expect(proxy.seen).toEqual([]);
  });
});
