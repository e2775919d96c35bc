import { existsSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import type { Cairn } from "../../cairn.js";
import { repairPath, type SalvageReport, salvageStore, storeInUseError } from "../../store/salvageStore.js";
import { checkStoreHealth, type StoreHealth } from "../../store/storeCheck.js";
import { damagedStoreError } from "../../store/storeFault.js";
import { heldBy } from "../../workers/runLock.js";
import { printJson, printLine } from "../output.js";
import { SOCKET_NAME } from "../resident/residentSocket.js";

export function isDamaged(health: StoreHealth): boolean {
  return health.markedDamaged || health.problems.length > 0;
}

/**
 * The store part of `cairn doctor`, run before anything opens the store: reads it read-only with
 * quick_check. A damaged store is explained (and, with `repair`, rebuilt) here and the rest of the
 * doctor is skipped, since it needs a working store. Returns the health when the doctor may go on.
 */
export async function doctorStore(
  cairn: Cairn,
  options: { repair: boolean; json: boolean },
): Promise<{ done: true } | { done: false; health: StoreHealth }> {
  const health = checkStoreHealth(cairn.paths.database);
  if (options.repair) {
    if (!isDamaged(health)) {
      if (options.json) printJson({ store: health, repair: null });
      else printLine(`store         ${health.path}: no damage found (quick_check ok); nothing to repair`);
      return { done: true };
    }
    const report = await repairStore(cairn);
    if (options.json) printJson({ store: health, repair: report });
    else printSalvage(report, cairn.paths.database);
    return { done: true };
  }
  if (!isDamaged(health)) return { done: false, health };
  if (options.json) printJson({ store: health });
  else printDamage(health);
  // The exit code comes from the one-line error the CLI prints on stderr.
  throw damagedStoreError(health.path);
}

/**
 * The repair, refused while a process holds the store (it would write on into the damaged file), and
 * interruptible: Ctrl-C or SIGTERM stops the copy and leaves the damaged store in place, still marked.
 */
async function repairStore(cairn: Cairn): Promise<SalvageReport> {
  // A resident process cairn started by itself keeps the store open between commands: it gives way.
  const { stopResident } = await import("../resident/stopResident.js");
  await stopResident(resolve(cairn.paths.home));
  const holders = storeHolders(cairn.paths.home);
  // A background run between two opens of the store would not show in SQLite's lock: its lock says it.
  if (heldBy(cairn.paths.home)) throw storeInUseError(cairn.paths.database, holders);
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  try {
    return await salvageStore(cairn.paths.database, { signal: controller.signal, holders });
  } finally {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
  }
}

/** What is known to use the store: a background run by its lock, a daemon by its socket. */
function storeHolders(home: string): string[] {
  const holders: string[] = [];
  const run = heldBy(home);
  if (run) holders.push(`a background 'cairn run' (pid ${run.pid})`);
  if (existsSync(join(home, SOCKET_NAME)))
    holders.push(`a 'cairn serve' daemon (its socket ${join(home, SOCKET_NAME)})`);
  return holders;
}

function printDamage(health: StoreHealth): void {
  printLine(`store         ${health.path} is DAMAGED`);
  if (health.markedDamaged && health.problems.length === 0)
    printLine(
      "              an earlier command met a damaged page (quick_check finds none now: the damage may be in the WAL or gone)",
    );
  for (const problem of health.problems.slice(0, 5)) printLine(`              ${problem}`);
  printLine("              cairn refuses to write into it, so nothing more is lost.");
  if (existsSync(repairPath(health.path)))
    printLine(
      `              ${repairPath(health.path)} is the partial copy of a repair that was stopped; the next repair replaces it`,
    );
  printLine(
    `              'cairn doctor --repair' builds a fresh store beside it from every row that can still be read, swaps it in and keeps this one as ${basename(health.path)}.damaged-<time>;`,
  );
  printLine(
    "              sessions that cannot be saved come back from the agents' transcripts on the next 'cairn scan'.",
  );
}

function printSalvage(report: SalvageReport, path: string): void {
  printLine(`store         damaged file kept as ${report.damagedPath}`);
  printLine(`              fresh store at ${path}`);
  if (report.unreadable) printLine(`              nothing could be read from the damaged file: ${report.unreadable}`);
  for (const table of report.tables) {
    if (table.saved === 0 && table.total === 0) continue;
    const lost = table.total === null ? "unknown number lost" : `${Math.max(0, table.total - table.saved)} lost`;
    printLine(`              ${table.table.padEnd(24)} ${String(table.saved).padStart(7)} saved, ${lost}`);
  }
  printLine(
    `              ${report.saved} rows saved, ${report.lost === null ? "an unknown number" : report.lost} lost`,
  );
  if (report.rescan)
    printLine("              the next 'cairn scan' re-imports every session from the agents' transcripts");
}
