import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { startDaemon } from "../../src/server/startDaemon.js";
import { runCliAsync } from "../helpers/runCli.js";
import { type TempHome, tempHome } from "../server/tempHome.js";

// `cairn ui` beside a running `cairn serve` with a token: it reuses that server, and the address it
// prints signs the browser in once, without the token in it.

const TOKEN = "9f8e7d6c5b4a39281706f5e4d3c2b1a09f8e7d6c";
let temp: TempHome;
let daemon: Awaited<ReturnType<typeof startDaemon>>;

beforeAll(async () => {
  temp = tempHome({ "server.token": TOKEN });
  daemon = await startDaemon({
    cairn: new Cairn({ home: temp.home, env: temp.env }),
    host: "127.0.0.1",
    port: 0,
    schedule: false,
    log: () => {},
  });
});

afterAll(async () => {
  await daemon.stop();
  temp.cleanup();
});

describe("cairn ui", () => {
  it("reuses the running server and prints a one-time sign-in address, never the token", async () => {
    const result = await runCliAsync(["ui", "--no-open", "--port", String(daemon.port)], { env: temp.env });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).not.toContain(TOKEN);
    const url = result.stdout.trim();
    expect(url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${daemon.port}/ui/login\\?code=[\\w-]+$`));
    const login = await fetch(url, { redirect: "manual" });
    expect(login.status).toBe(303);
    const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0] as string;
    const projects = await fetch(`http://127.0.0.1:${daemon.port}/api/projects`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-cairn-ui": "1", cookie },
      body: "{}",
    });
    expect(projects.status).toBe(200);
    expect((await fetch(url, { redirect: "manual" })).status).toBe(401);
  });
});
