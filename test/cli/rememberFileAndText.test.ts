import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { Cairn } from "../../src/cairn.js";
import { runCliCaptured } from "../helpers/everyDoor.js";
import { type TempHome, tempHome } from "../server/tempHome.js";

let temp: TempHome | undefined;
afterEach(() => temp?.cleanup());

it("remember --file with a text as well fails in one line and stores neither", async () => {
  temp = tempHome();
  const items = join(temp.root, "items.jsonl");
  writeFileSync(items, `${JSON.stringify({ content: "Builds run on the nightly runner.", scope: "global" })}\n`);

  const both = await runCliCaptured(temp.home, ["remember", "--file", items, "also this text", "--scope", "global"]);
  expect(both.code).toBe(1);
  expect(both.stderr.split("\n").filter(Boolean)).toEqual(["cairn: remember: give the text or --file, not both"]);
  const cairn = new Cairn({ home: temp.home, env: temp.env });
  try {
    expect(cairn.storage.memories.counts().live).toBe(0);
  } finally {
    cairn.close();
  }
  // The file alone is taken.
  expect((await runCliCaptured(temp.home, ["remember", "--file", items])).code).toBe(0);
});
