import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { createHttpApp } from "../../src/server/createHttpApp.js";
import { formatRemember } from "../../src/server/formatToolText.js";
import { runCli } from "../helpers/runCli.js";
import { type TempHome, tempHome } from "./tempHome.js";

/** A 127.0.0.1 port nothing listens on: the embedding provider's calls are refused at once. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let temp: TempHome;
let cairn: Cairn;

beforeAll(async () => {
  const port = await closedPort();
  temp = tempHome({ "embeddings.provider": "ollama", "embeddings.baseUrl": `http://127.0.0.1:${port}` });
  cairn = new Cairn({ home: temp.home, env: temp.env });
});

afterAll(() => {
  cairn.close();
  temp.cleanup();
});

describe("remember with an embedding provider that fails", () => {
  it("stores the memory and says over HTTP that its vector is missing", async () => {
    const app = createHttpApp({ cairn, daemonStatus: () => ({ running: false }) });
    const response = await app.request("/api/memory/remember", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ content: "deploys go through the staging branch", scope: "global" }),
    });
    expect(response.status).toBe(200);
    const { results } = (await response.json()) as { results: Array<{ status: string; warnings?: string[] }> };
    expect(results[0]?.status).toBe("created");
    expect(results[0]?.warnings).toEqual([expect.stringContaining("stored without a vector")]);
  });

  it("shows the warning in the MCP tool's text, and nothing more when there is none", () => {
    const text = formatRemember({ status: "created", id: 7, contentHash: "h", warnings: ["stored without a vector"] });
    expect(text).toBe("Remembered (id 7).\n\nwarning: stored without a vector");
    expect(formatRemember({ status: "created", id: 7, contentHash: "h" })).toBe("Remembered (id 7).");
  });

  it("prints the warning from `cairn remember`", () => {
    const result = runCli(["remember", "--scope", "global", "the CI cache key includes the lockfile hash"], {
      env: temp.env,
    });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^remembered \(#\d+\)\nwarning: stored without a vector/);
  });
});
