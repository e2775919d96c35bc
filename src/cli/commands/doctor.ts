import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import type { Cairn } from "../../cairn.js";
import type { ConnectorHealth } from "../../connectors/connectorHealth.js";
import type { HealthReport } from "../../memory/health/runHealthCycle.js";
import { type SummarySizeWarning, summarySizeWarnings } from "../../read/summarySizeWarnings.js";
import { projectIndexProblem } from "../../workspace/projectIndex.js";
import { withCairn } from "../context.js";
import { printJson, printLine } from "../output.js";
import { doctorRetention } from "./doctorRetention.js";
import { doctorStore } from "./doctorStore.js";

export interface DoctorReport {
  home: string;
  store: { path: string; bytes: number; schemaVersion: number; sessions: number; items: number };
  sqliteVec: { loaded: boolean; error: string | null };
  sources: Array<{ agent: string; roots: Array<{ path: string; exists: boolean }>; files: number }>;
  provider: { default: string; smol: string; reason: string };
  /** The embedding provider: the model it loaded (a local one's file), or why it cannot embed. */
  embeddings: { provider: string; ready: boolean; detail: string };
  memoriesEnabled: boolean;
  /** Memory summaries too long for the smallest agent cap (cut at every session start). */
  summarySizes: SummarySizeWarning[];
  /** Each agent `cairn install` connected, and whether the node and cairn its entries name still run. */
  connectors: ConnectorHealth[];
  /** Set when Codex's AGENTS.override.md hides cairn's AGENTS.md block. */
  codexAgentsOverride: string | null;
  /** Set when memories/projects.json cannot be used: injection then finds moved checkouts by identity only. */
  projectIndex: string | null;
  /** The maintenance worker's diagnostics and health score now (observe: nothing repaired by doctor). */
  health: HealthReport;
  /** The process that answers recall and inject for the CLI: whether one listens, and the setting that starts one. */
  resident: { socket: string; listening: boolean; idleMinutes: number; off: boolean };
}

export function registerDoctor(program: Command): void {
  program
    .command("doctor")
    .description("check the store, sqlite-vec, the agent sources found and the model provider")
    .option("--json", "print JSON")
    .option("--repair", "rebuild a damaged store from what can still be read (the damaged file is kept aside)")
    .option("--retention", "run a retention sweep now: purge what outlived its window (docs/operations.md)")
    .action(async (options: { repair?: boolean; retention?: boolean }, command: Command) => {
      await withCairn(command, async (cairn, global) => {
        if (options.retention) return doctorRetention(cairn, { json: global.json ?? false });
        const store = await doctorStore(cairn, { repair: options.repair ?? false, json: global.json ?? false });
        if (store.done) return;
        const report = await doctor(cairn);
        if (global.json) return printJson({ ...report, storeHealth: store.health });
        printDoctor(report);
      });
    });
}

export async function doctor(cairn: Cairn): Promise<DoctorReport> {
  const storage = cairn.storage;
  const { scanTargets } = await import("../../sources/registry.js");
  const sources = [];
  for (const target of scanTargets({ env: cairn.env, configured: cairn.config.sources })) {
    let files = 0;
    for (const root of target.roots) files += (await target.adapter.discover(root)).length;
    sources.push({
      agent: target.adapter.agent,
      roots: target.roots.map((path) => ({ path, exists: existsSync(path) })),
      files,
    });
  }
  const provider = await cairn.describeProviders();
  const { embeddingStatus } = await import("../../providers/embeddings/embeddingStatus.js");
  const embeddings = { provider: cairn.embedder.name, ...(await embeddingStatus(cairn.embedder)) };
  const { codexAgentsOverrideWarning } = await import("../../connectors/codexAgentsOverride.js");
  const { checkConnectors } = await import("../../connectors/connectorHealth.js");
  const { residentState } = await import("../resident/startOnDemand.js");
  return {
    home: cairn.paths.home,
    store: {
      path: cairn.paths.database,
      bytes: existsSync(cairn.paths.database) ? statSync(cairn.paths.database).size : 0,
      schemaVersion: storage.schemaVersion(),
      sessions: storage.sessions.count(),
      items: storage.items.count(),
    },
    sqliteVec: { loaded: storage.vecError === null, error: storage.vecError },
    sources,
    provider,
    embeddings,
    memoriesEnabled: cairn.config.memories.enabled,
    summarySizes: summarySizeWarnings({
      memoriesRoot: cairn.paths.memories,
      tokenLimit: cairn.config.memories.summaryInjectionTokenLimit,
    }),
    connectors: checkConnectors(cairn.env),
    codexAgentsOverride: codexAgentsOverrideWarning(cairn.env) ?? null,
    projectIndex: projectIndexProblem(cairn.paths.memories),
    health: await observeHealth(cairn),
    resident: {
      ...(await residentState(resolve(cairn.paths.home))),
      idleMinutes: cairn.config.resident.idleMinutes,
      off: cairn.env.CAIRN_RESIDENT === "off",
    },
  };
}

/** One maintenance cycle in observe mode: what the worker would repair, with the limits it would apply. */
async function observeHealth(cairn: Cairn): Promise<HealthReport> {
  const { runHealthCycle } = await import("../../memory/health/runHealthCycle.js");
  let model: string | null = null;
  try {
    model = cairn.embedder.model;
  } catch {
    // No provider: the vector check is left out; the embeddings line says why.
  }
  const never = async () => 0;
  return runHealthCycle({
    storage: cairn.storage,
    now: cairn.clock,
    mode: "observe",
    limits: cairn.config.workers.maintenance,
    embeddingModel: model,
    repairs: {
      requeueDeadJobs: never,
      releaseStaleLeases: never,
      rebuildFts: never,
      reembed: never,
      triggerRetention: never,
    },
  });
}

function printDoctor(report: DoctorReport): void {
  printLine(`memory root   ${report.home}`);
  printLine(`resident      ${residentLine(report.resident)}`);
  printLine(
    `store         ${report.store.path} (schema ${report.store.schemaVersion}, ${report.store.sessions} sessions, ${report.store.items} items)`,
  );
  printLine(
    report.sqliteVec.loaded
      ? "sqlite-vec    loaded"
      : `sqlite-vec    NOT loaded (${report.sqliteVec.error}); vector search falls back to a slower scan`,
  );
  printLine("sources");
  for (const source of report.sources) {
    const roots = source.roots.map((root) => `${root.path}${root.exists ? "" : " (missing)"}`).join(", ");
    printLine(`  ${source.agent.padEnd(12)} ${String(source.files).padStart(6)} files  ${roots}`);
  }
  printLine(`provider      default: ${report.provider.default}; smol: ${report.provider.smol}`);
  printLine(`              ${report.provider.reason}`);
  const { embeddings } = report;
  printLine(
    embeddings.ready
      ? `embeddings    ${embeddings.provider}: ${embeddings.detail}`
      : `embeddings    ${embeddings.provider} NOT ready (recall uses keywords only): ${embeddings.detail}`,
  );
  printLine(
    `memories      ${report.memoriesEnabled ? "enabled" : "disabled for agent hooks (enable: cairn config set memories.enabled true)"}`,
  );
  for (const warning of report.summarySizes) printLine(`warning       ${warning.message}`);
  printConnectors(report.connectors);
  if (report.codexAgentsOverride) printLine(`codex         ${report.codexAgentsOverride}`);
  if (report.projectIndex) printLine(`warning       ${report.projectIndex}; "cairn consolidate --force" rewrites it`);
  const { health } = report;
  const d = health.diagnostics;
  printLine(
    `health        ${health.health.score.toFixed(2)} (queue ${d.queue.dead} dead of ${d.queue.jobs}, ${d.queue.staleLeases} stale leases; index ${d.index.ftsRows} rows for ${d.index.liveMemories} memories; ${d.vectors.missing} without a vector; ${d.storage.tombstones} tombstones of ${d.storage.memories})`,
  );
  for (const r of health.recommendations) {
    const halted = health.halted.includes(r.action) ? " [halted until health is good]" : "";
    printLine(`  would ${r.action}: ${r.reason}${halted}`);
  }
  if (health.recommendations.length > 0) {
    printLine(
      "  the maintenance worker repairs these (workers.maintenance.mode execute) in `cairn serve` and `cairn run`",
    );
  }
}

/** One line per connected agent: what its entries run, or what broke and the command that mends it. */
function printConnectors(connectors: ConnectorHealth[]): void {
  if (connectors.length === 0) {
    printLine("connectors    none installed (cairn install <agent>)");
    return;
  }
  printLine("connectors");
  for (const connector of connectors) {
    const state =
      connector.problems.length === 0
        ? `ok: ${connector.commands.map((command) => `${command} (${connector.nodeVersions[command] ?? "?"})`).join(", ")} runs ${connector.entries.join(", ")}`
        : `broken: ${connector.problems.join("; ")}; ${connector.fix}`;
    printLine(`  ${connector.agent.padEnd(12)} ${state}`);
  }
}

/** What answers `cairn recall` and `cairn inject` fast, and what starts it (README "Fast recall and inject"). */
function residentLine(resident: DoctorReport["resident"]): string {
  if (resident.off) return "off (CAIRN_RESIDENT=off): every recall and inject runs in its own process";
  if (resident.listening)
    return `answering recall and inject on ${resident.socket} (cairn serve, or one a recall started, which ends after ${resident.idleMinutes} idle minutes)`;
  if (resident.idleMinutes <= 0) return "none running; none is started (resident.idleMinutes is 0)";
  return `none running; the next recall or inject starts one (resident.idleMinutes ${resident.idleMinutes})`;
}
