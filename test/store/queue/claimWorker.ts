// A worker process for the multi-process queue test: claims jobs until none are left, logging
// start and end of each with timestamps so the test can check that no job ever ran twice at once.
import { appendFileSync } from "node:fs";
import { openDatabase } from "../../../src/store/connection.js";
import { JobQueue } from "../../../src/store/queue/jobQueue.js";

const [dbPath, logPath, name] = process.argv.slice(2) as [string, string, string];
const { db } = openDatabase(dbPath);
const queue = new JobQueue(db, { leaseMs: 30_000 });
let idle = 0;
while (idle < 20) {
  const [lease] = queue.claim({ kind: "work", runningCap: 3 });
  if (!lease) {
    idle += 1;
    await new Promise((resolve) => setTimeout(resolve, 10));
    continue;
  }
  idle = 0;
  appendFileSync(
    logPath,
    `${JSON.stringify({ name, job: lease.key, event: "start", t: performance.timeOrigin + performance.now() })}\n`,
  );
  await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 10));
  appendFileSync(
    logPath,
    `${JSON.stringify({ name, job: lease.key, event: "end", t: performance.timeOrigin + performance.now() })}\n`,
  );
  if (!queue.succeed(lease)) throw new Error(`lost lease on ${lease.key}`);
}
db.close();
