import { afterAll, describe, expect, it } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { runCli } from "../helpers/runCli.js";
import { type TempHome, tempHome } from "../server/tempHome.js";

let temp: TempHome | undefined;

afterAll(() => temp?.cleanup());

describe("cairn memory history", () => {
  it("shows a memory's state and each change to it, by whom and why; an unknown id is one clear error", async () => {
    temp = tempHome();
    const cairn = new Cairn({ home: temp.home, env: temp.env });
    const [old] = await cairn.remember({ content: "The dev server listens on port 3000", scope: "global" });
    const [current] = await cairn.remember({ content: "The dev server listens on port 8080", scope: "global" });
    // The revise step every remember runs replaced the older port.
    cairn.close();
    const env = { ...temp.env };

    const text = runCli(["memory", "history", String(old!.id)], { env });
    expect(text.status, text.stderr).toBe(0);
    const lines = text.stdout.trim().split("\n");
    expect(lines[0]).toMatch(
      new RegExp(
        `^#${old!.id} \\(fact, global, replaced by #${current!.id} \\d{4}-\\d{2}-\\d{2}T.*\\): The dev server listens on port 3000$`,
      ),
    );
    expect(lines.slice(1).map((line) => line.replace(/^\s+\S+\s+/, ""))).toEqual([
      "created by user",
      "superseded by supersession: value change: 3000 -> 8080",
    ]);

    const json = JSON.parse(runCli(["memory", "history", String(old!.id), "--json"], { env }).stdout) as {
      memory: { id: number; supersededBy: number };
      events: Array<{ event: string; who: string | null }>;
    };
    expect(json.memory).toMatchObject({ id: old!.id, supersededBy: current!.id });
    expect(json.events.map((e) => [e.event, e.who])).toEqual([
      ["created", "user"],
      ["superseded", "supersession"],
    ]);

    const missing = runCli(["memory", "history", "999"], { env });
    expect(missing.status).toBe(1);
    expect(missing.stderr.trim()).toBe("cairn: no memory #999 (recall --json and memory review show ids)");
  });
});
