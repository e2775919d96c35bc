import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../../src/store/connection.js";
import { JobQueue } from "../../../src/store/queue/jobQueue.js";
import { tempDir } from "../../helpers/tempDir.js";

const run = promisify(execFile);

describe("JobQueue across processes", () => {
  it("runs every job exactly once, never two at once, never more than the running cap", async () => {
    const dir = tempDir("cairn-queue-");
    const dbPath = join(dir, "cairn.db");
    const logPath = join(dir, "log.jsonl");
    writeFileSync(logPath, "");
    const { db } = openDatabase(dbPath);
    const queue = new JobQueue(db);
    const jobs = 60;
    for (let i = 0; i < jobs; i++) queue.enqueue({ kind: "work", key: `job-${i}` });
    db.close();

    const worker = join(import.meta.dirname, "claimWorker.ts");
    await Promise.all(
      ["a", "b", "c", "d"].map((name) =>
        run(process.execPath, ["--import", "tsx", worker, dbPath, logPath, name], { timeout: 60_000 }),
      ),
    );

    const events = readFileSync(logPath, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { name: string; job: string; event: string; t: number });
    const starts = events.filter((event) => event.event === "start");
    expect(new Set(starts.map((event) => event.job)).size).toBe(jobs);
    expect(starts).toHaveLength(jobs);

    // Replay the log in time order: concurrency must stay within the cap of 3.
    let running = 0;
    let peak = 0;
    for (const event of [...events].sort((a, b) => a.t - b.t || (a.event === "end" ? -1 : 1))) {
      running += event.event === "start" ? 1 : -1;
      peak = Math.max(peak, running);
    }
    expect(peak).toBeLessThanOrEqual(3);
    expect(new Set(starts.map((event) => event.name)).size).toBeGreaterThan(1);

    const check = openDatabase(dbPath).db;
    const done = check.prepare("SELECT count(*) AS n FROM jobs WHERE status = 'succeeded'").get() as { n: number };
    expect(done.n).toBe(jobs);
    check.close();
  });
});
