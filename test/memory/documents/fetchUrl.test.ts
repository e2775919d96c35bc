import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Cairn, openCairn } from "../../../src/index.js";
import { fetchUrlContent } from "../../../src/memory/documents/fetchUrl.js";
import { type LoopbackReply, type LoopbackServer, startLoopbackServer } from "../../helpers/loopbackServer.js";
import { removeTempDirs, tempDir } from "../../helpers/tempDir.js";

const PAGE = `<!doctype html><html><head><title>Release &amp; rollback guide</title>
<style>.x { color: red }</style><script>var secretScript = "do not keep";</script></head>
<body><nav>Home</nav><h1>Rollback</h1><p>Rollbacks need the on&#8209;call lead&nbsp;&mdash; always.</p>
<ul><li>first step</li><li>second step</li></ul><!-- a comment --></body></html>`;

const allowAll = { timeoutMs: 5000, maxBytes: 4096, allowPrivateAddresses: true };

describe("fetchUrlContent", () => {
  let server: LoopbackServer;
  beforeEach(async () => {
    server = await startLoopbackServer(() => ({ status: 200, headers: { "content-type": "text/html" }, body: PAGE }));
  });
  afterEach(() => server.close());

  it("turns a page into its text and title: no script, style or comment, entities decoded, blocks on lines", async () => {
    const page = await fetchUrlContent(`${server.url}/guide`, allowAll);
    expect(page.title).toBe("Release & rollback guide");
    expect(page.contentType).toBe("text/html");
    expect(page.text).toContain("Rollbacks need the on\u2011call lead \u2014 always.");
    expect(page.text).toMatch(/first step\n+second step/);
    expect(page.text).not.toMatch(/secretScript|color: red|a comment|<\w/);
  });

  it("reads a page in the encoding its <meta> names when the header names none", async () => {
    const latin1 = Buffer.from(
      '<html><head><meta charset="iso-8859-1"><title>Caf\u00e9</title></head><body>cr\u00e8me</body></html>',
      "latin1",
    );
    server.setHandler((_request, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end(latin1);
      return undefined;
    });
    const page = await fetchUrlContent(`${server.url}/cafe`, allowAll);
    expect(page).toMatchObject({ title: "Caf\u00e9", text: "cr\u00e8me" });
  });

  it("refuses loopback when private addresses are not allowed, by address and by a name that resolves to it, before any request", async () => {
    const strict = { ...allowAll, allowPrivateAddresses: false };
    await expect(fetchUrlContent(`${server.url}/`, strict)).rejects.toThrow(
      /127\.0\.0\.1 is a loopback, link-local or private address; set workers\.documents\.allowPrivateAddresses: true/,
    );
    const port = new URL(server.url).port;
    await expect(fetchUrlContent(`http://localhost:${port}/`, strict)).rejects.toThrow(
      /localhost resolves to (127\.0\.0\.1|::1) is a loopback/,
    );
    expect(server.requests).toHaveLength(0);
  });

  it("checks the address again on every redirect", async () => {
    const port = new URL(server.url).port;
    server.setHandler(
      (request): LoopbackReply =>
        request.path === "/start"
          ? { status: 302, headers: { location: `http://127.0.0.2:${port}/inside` }, body: "" }
          : { status: 200, headers: { "content-type": "text/plain" }, body: "inside" },
    );
    // Only the test server's own address is allowed: the redirect's target is refused.
    const onlyServer = {
      ...allowAll,
      allowPrivateAddresses: false,
      addressProblem: (address: string) => (address === "127.0.0.1" ? undefined : `${address} is not allowed`),
    };
    await expect(fetchUrlContent(`${server.url}/start`, onlyServer)).rejects.toThrow(/127\.0\.0\.2 is not allowed/);
    expect(server.requests.map((request) => request.path)).toEqual(["/start"]);
  });

  it("stops reading a body past the byte cap while it streams (no Content-Length)", async () => {
    let sent = 0;
    server.setHandler((_request, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      // An endless body: a fetcher that read it all before checking would never return.
      const timer = setInterval(() => {
        if (res.destroyed || sent > 50_000_000) return clearInterval(timer);
        sent += 1024;
        res.write("x".repeat(1024));
      }, 2);
      res.on("close", () => clearInterval(timer));
      return undefined;
    });
    const error = (await fetchUrlContent(`${server.url}/endless`, allowAll).catch((caught) => caught)) as Error;
    expect(error.message).toMatch(/more than \d+ bytes is over workers\.documents\.maxContentBytes \(4096\)$/);
    // Refused as soon as the count passed the cap: within the next few writes, not at the end.
    const read = Number(/more than (\d+) bytes/.exec(error.message)?.[1]);
    expect(read).toBeGreaterThan(4096);
    expect(read).toBeLessThan(4096 + 16 * 1024);
    expect(sent).toBeLessThan(200_000);
  });

  it("refuses a declared Content-Length over the cap before reading the body", async () => {
    server.setHandler(() => ({
      status: 200,
      headers: { "content-type": "text/plain", "content-length": "5000" },
      body: "y".repeat(5000),
    }));
    await expect(fetchUrlContent(`${server.url}/big`, allowAll)).rejects.toThrow(
      /^http:\/\/127\.0\.0\.1:\d+\/big: 5000 bytes is over workers\.documents\.maxContentBytes \(4096\)$/,
    );
  });

  it("gives up after the timeout", async () => {
    server.setHandler(() => new Promise(() => undefined));
    await expect(fetchUrlContent(`${server.url}/slow`, { ...allowAll, timeoutMs: 300 })).rejects.toThrow(
      /no answer within 300 ms \(workers\.documents\.fetchTimeoutMs\)/,
    );
  });
});

describe("cairn ingest <url>", () => {
  let server: LoopbackServer;
  let cairn: Cairn;
  const rows = (table: string) =>
    (cairn.storage.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

  const open = (allowPrivateAddresses: boolean) => {
    const dir = tempDir("cairn-ingest-url-");
    cairn = openCairn({
      home: join(dir, "home"),
      env: {},
      importLanes: false,
      config: {
        "llm.provider": "offline",
        "workers.documents.maxContentBytes": 4096,
        "workers.documents.allowPrivateAddresses": allowPrivateAddresses,
      },
    });
    return dir;
  };

  beforeEach(async () => {
    server = await startLoopbackServer((request): LoopbackReply => {
      switch (request.path.split("?")[0]) {
        case "/guide":
          return { status: 200, headers: { "content-type": "text/html; charset=utf-8" }, body: PAGE };
        case "/style.css":
          return { status: 200, headers: { "content-type": "text/css" }, body: "body { color: red }" };
        case "/logo.png":
          return { status: 200, headers: { "content-type": "image/png" }, body: "\u0089PNG" };
        case "/loop-a":
          return { status: 301, headers: { location: "/loop-b" }, body: "" };
        case "/loop-b":
          return { status: 302, headers: { location: "/loop-a" }, body: "" };
        case "/moved":
          return { status: 302, headers: { location: "/guide" }, body: "" };
        case "/endless-redirect":
          return { status: 302, headers: { location: `/endless-redirect?n=${server.requests.length}` }, body: "" };
        default:
          return { status: 404, headers: { "content-type": "text/plain" }, body: "not here" };
      }
    });
  });
  afterEach(async () => {
    cairn.close();
    await server.close();
    removeTempDirs();
  });

  it("ingests a page after a redirect: its title names the document, its text is in the chunks", async () => {
    const dir = open(true);
    const report = await cairn.ingest({ url: `${server.url}/moved`, cwd: dir });
    expect(report.documents[0]).toMatchObject({ title: "Release & rollback guide", status: "done", chunks: 1 });
    const { results } = await cairn.recall({ query: "on-call lead rollbacks", cwd: dir });
    expect(results[0]?.ref).toContain('"Release & rollback guide"');
    expect(results[0]?.content).not.toContain("secretScript");
  });

  it("fetches with a token the URL carries but stores the source redacted", async () => {
    const dir = open(true);
    const token = "ghp_R7kW2pQ9xZ4mN8vB3cL6tY1hJ5gF0dS2aE7u";
    await cairn.ingest({ url: `${server.url}/guide?access_token=${token}`, cwd: dir });
    expect(server.requests[0]?.path).toBe(`/guide?access_token=${token}`);
    const [document] = cairn.documents({ cwd: dir });
    expect(document?.source).toContain(`${server.url}/guide?access_token=`);
    expect(document?.source).not.toContain("R7kW2pQ9");
    const refs = cairn.storage.db.prepare("SELECT ref, why FROM memories").all() as Array<{ ref: string; why: string }>;
    expect(JSON.stringify(refs)).not.toContain("R7kW2pQ9");
  });

  it.each([
    ["a 404", "/missing", /HTTP 404; check the address/],
    ["a stylesheet", "/style.css", /content type text\/css is not a document/],
    ["an image", "/logo.png", /content type image\/png is not a document/],
    ["a redirect loop", "/loop-a", /redirect loop \(back to http:\/\/127\.0\.0\.1:\d+\/loop-a\)/],
    ["endless redirects", "/endless-redirect", /more than 5 redirects/],
  ])("refuses %s with one error and leaves no document or chunk", async (_what, path, message) => {
    const dir = open(true);
    const error = (await cairn.ingest({ url: `${server.url}${path}`, cwd: dir }).catch((caught) => caught)) as Error;
    expect(error.message).toMatch(message);
    expect(error.message).toMatch(/; nothing was stored$/);
    expect(error.message.split("\n")).toHaveLength(1);
    expect(rows("documents")).toBe(0);
    expect(rows("document_memories")).toBe(0);
    expect(rows("memories")).toBe(0);
    // Bad input is not retried: the job ended.
    expect(cairn.storage.jobs.list({ kind: "document_ingest" }).map((job) => job.status)).toEqual(["succeeded"]);
  });

  it("refuses the test server's own loopback address by default, and stores nothing", async () => {
    const dir = open(false);
    await expect(cairn.ingest({ url: `${server.url}/guide`, cwd: dir })).rejects.toThrow(
      /loopback, link-local or private address; set workers\.documents\.allowPrivateAddresses: true to fetch from it; nothing was stored/,
    );
    expect(server.requests).toHaveLength(0);
    expect(rows("documents")).toBe(0);
    expect(rows("memories")).toBe(0);
  });
});
