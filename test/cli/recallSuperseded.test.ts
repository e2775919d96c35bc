import { afterAll, describe, expect, it } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { runCli } from "../helpers/runCli.js";
import { type TempHome, tempHome } from "../server/tempHome.js";

let temp: TempHome | undefined;

afterAll(() => temp?.cleanup());

describe("cairn recall --include-superseded", () => {
  it("prints each result's replaced memories under it, dated and naming the successor", async () => {
    temp = tempHome();
    const cairn = new Cairn({ home: temp.home, env: temp.env });
    const [old] = await cairn.remember({ content: "The dev server listens on port 3000", scope: "global" });
    const [current] = await cairn.remember({ content: "The dev server listens on port 8080", scope: "global" });
    cairn.memories.supersede(old!.id!, current!.id!);
    cairn.close();
    const env = { ...temp.env };
    const args = ["recall", "dev server port", "--scope", "global"];

    const plain = runCli(args, { env });
    expect(plain.status, plain.stderr).toBe(0);
    expect(plain.stdout).toContain(`#${current!.id} [fact, global]`);
    expect(plain.stdout).not.toContain("port 3000");

    const text = runCli([...args, "--include-superseded"], { env });
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toMatch(
      new RegExp(`#${old!.id} superseded \\d{4}-\\d{2}-\\d{2} by #${current!.id}: The dev server listens on port 3000`),
    );
    const json = JSON.parse(runCli([...args, "--include-superseded", "--json"], { env }).stdout) as {
      results: Array<{ id: number; superseded?: Array<{ id: number; supersededBy: number }> }>;
    };
    expect(json.results).toHaveLength(1);
    expect(json.results[0]!.superseded).toEqual([
      expect.objectContaining({
        id: old!.id,
        supersededBy: current!.id,
        content: "The dev server listens on port 3000",
      }),
    ]);
  });
});
