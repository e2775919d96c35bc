import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { createHttpApp } from "../../src/server/createHttpApp.js";
import { type TempHome, tempHome } from "./tempHome.js";

// The memory browser behind a token: the page loads without one, its data only with the token or the
// session cookie a one-time code buys, and that cookie only together with the page's own header.

let temp: TempHome;
let cairn: Cairn;
const TOKEN = "9f8e7d6c5b4a39281706f5e4d3c2b1a09f8e7d6c";

beforeAll(() => {
  temp = tempHome();
  cairn = new Cairn({ home: temp.home, env: temp.env });
});

afterAll(() => {
  cairn.close();
  temp.cleanup();
});

const post = (headers: Record<string, string> = {}, body: unknown = {}) => ({
  method: "POST",
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify(body),
});

async function signIn(app: ReturnType<typeof createHttpApp>): Promise<string> {
  const minted = await app.request("/api/ui/code", post({ authorization: `Bearer ${TOKEN}` }));
  const { code } = (await minted.json()) as { code: string };
  const login = await app.request(`/ui/login?code=${code}`);
  expect(login.status).toBe(303);
  expect(login.headers.get("location")).toBe("/ui/");
  const cookie = login.headers.get("set-cookie") ?? "";
  expect(cookie).toMatch(/HttpOnly/);
  expect(cookie).toMatch(/SameSite=Strict/);
  expect(cookie).not.toContain(TOKEN);
  return cookie.split(";")[0] as string;
}

describe("memory browser access", () => {
  it("serves the page without the token, with a policy that allows only its own script", async () => {
    const app = createHttpApp({ cairn, token: TOKEN });
    const page = await app.request("/ui/");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<script src="app.js"');
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect((await app.request("/ui/app.js")).status).toBe(200);
  });

  it("refuses the data routes without the token", async () => {
    const app = createHttpApp({ cairn, token: TOKEN });
    expect((await app.request("/api/projects", post())).status).toBe(401);
    expect((await app.request("/api/ui/code", post())).status).toBe(401);
  });

  it("exchanges a one-time code for a cookie that works only with the page's header", async () => {
    const app = createHttpApp({ cairn, token: TOKEN });
    const cookie = await signIn(app);
    expect((await app.request("/api/projects", post({ cookie, "x-cairn-ui": "1" }))).status).toBe(200);
    // A page of another origin on this machine gets the cookie sent but cannot add the header.
    expect((await app.request("/api/projects", post({ cookie }))).status).toBe(401);
    expect((await app.request("/api/projects", post({ cookie: "cairn_ui=guessed", "x-cairn-ui": "1" }))).status).toBe(
      401,
    );
  });

  it("records an edit made in the signed-in page as the user's, and one with the bearer token as the API's", async () => {
    const app = createHttpApp({ cairn, token: TOKEN });
    const [one, two] = await cairn.remember([
      { content: "Backups run at 02:00 UTC", scope: "global" },
      { content: "Logs are kept for 30 days", scope: "global" },
    ]);
    const edit = async (headers: Record<string, string>, id: number | undefined, content: string) => {
      const response = await app.request("/api/memory/edit", post(headers, { id, content }));
      expect(response.status).toBe(200);
      const { replacedBy } = (await response.json()) as { replacedBy: number };
      return cairn.memories.get(replacedBy)?.who;
    };
    const cookie = await signIn(app);
    expect(await edit({ cookie, "x-cairn-ui": "1" }, one?.id, "Backups run at 03:00 UTC")).toBe("user");
    expect(await edit({ authorization: `Bearer ${TOKEN}` }, two?.id, "Logs are kept for 90 days")).toBe("agent:http");
  });

  it("spends a code on first use", async () => {
    const app = createHttpApp({ cairn, token: TOKEN });
    const minted = await app.request("/api/ui/code", post({ authorization: `Bearer ${TOKEN}` }));
    const { code } = (await minted.json()) as { code: string };
    expect((await app.request(`/ui/login?code=${code}`)).status).toBe(303);
    const again = await app.request(`/ui/login?code=${code}`);
    expect(again.status).toBe(401);
    expect(await again.text()).toContain("run 'cairn ui' again");
  });

  it("needs no code when the server has no token", async () => {
    const app = createHttpApp({ cairn });
    expect(await (await app.request("/api/ui/code", post())).json()).toEqual({ code: null });
    expect((await app.request("/api/projects", post())).status).toBe(200);
  });
});

describe("memory browser routes", () => {
  it("lists memories with history, sessions with their state, and rejects unknown fields", async () => {
    const app = createHttpApp({ cairn });
    await app.request(
      "/api/memory/remember",
      post({}, { content: "Deploys go through the staging cluster first", cwd: temp.project }),
    );
    const exported = await app.request("/api/memory/export", post({}, { cwd: temp.project, all: true }));
    const { memories } = (await exported.json()) as {
      memories: Array<{ id: number; content: string; history: unknown[] }>;
    };
    const memory = memories.find((m) => m.content.includes("staging cluster"));
    expect(memory?.history.length).toBeGreaterThan(0);
    const history = await app.request("/api/memory/history", post({}, { id: memory?.id }));
    expect(await history.json()).toMatchObject({ memory: { id: memory?.id }, events: [{ event: "created" }] });
    expect((await app.request("/api/memory/export", post({}, {}))).status).toBe(400);
    const sessions = await app.request("/api/sessions", post({}, { limit: 5 }));
    expect(await sessions.json()).toEqual({ sessions: expect.any(Array) });
    expect((await app.request("/api/sessions", post({}, { limt: 5 }))).status).toBe(400);
  });
});
