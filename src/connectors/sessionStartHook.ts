import { loadConfigCached } from "../config/loadConfigCached.js";
import { cairnPaths } from "../config/paths.js";
import { resumesAfterReset, storeRecovery } from "../read/checkpointRecovery.js";
import { buildInjection } from "../read/inject.js";
import { appendInjection } from "../read/injectionLog.js";
import { storeRemembered } from "../read/rememberedReader.js";
import { listedMemoryIds } from "../read/rememberedSource.js";
import { type BackgroundRunDecision, isCairnInternal, startBackgroundRun } from "../workers/startBackgroundRun.js";

// This module is the agent start path: it imports the config loader and the injection, never the recall
// engine or the providers; the store only when it exists, read-only (see docs/integration.md, "Latency").

export interface SessionStartRequest {
  /** `claude-code` answers in Claude Code's hook JSON; anything else gets plain text. */
  agent: string;
  home: string;
  /** From --cwd; else the cwd in the hook input; else the process cwd. */
  cwd?: string;
  /** The agent's hook input (already parsed; `{}` when there was none). */
  input: Record<string, unknown>;
  env: NodeJS.ProcessEnv;
  /** The time a checkpoint to recover is measured against (tests inject one). */
  now?: () => number;
  /** Replaced in tests so that no process is spawned. */
  startRun?: (options: { home: string; env: NodeJS.ProcessEnv }) => BackgroundRunDecision;
}

export interface SessionStartResult {
  /** What to print on stdout (may be empty). */
  stdout: string;
  injected: boolean;
  /** A checkpoint's digest was given because the session starts after a compaction or a clear. */
  recovered: boolean;
  run: BackgroundRunDecision;
  /** Why part of the memory could not be read (the block was still given without it). */
  warnings: string[];
}

/**
 * The SessionStart hook: the Memory Guidance block in the form the agent reads, then a detached pipeline
 * run for a root session. Does nothing when memories are disabled or inside cairn's own model runs.
 */
export async function sessionStartHook(request: SessionStartRequest): Promise<SessionStartResult> {
  const { env, input } = request;
  const skipped = (reason: string): SessionStartResult => ({
    stdout: "",
    injected: false,
    recovered: false,
    run: { started: false, reason },
    warnings: [],
  });
  if (isCairnInternal(env)) return skipped("inside one of cairn's own model runs");
  const paths = cairnPaths(request.home);
  const config = await loadConfigCached({ file: paths.config, env });
  if (!config.memories.enabled) return skipped("memories.enabled is false");
  const cwd = request.cwd ?? (typeof input.cwd === "string" && input.cwd !== "" ? input.cwd : process.cwd());
  const warnings: string[] = [];
  const recovery = await recoveryFor(request, paths.database, cwd, config.workers.continuity, warnings);
  const injection = buildInjection({
    memoriesRoot: paths.memories,
    cwd,
    tokenLimit: config.memories.summaryInjectionTokenLimit,
    // Claude Code gets its character budget (its hook output cap); other agents the token budget.
    agent: request.agent,
    remembered: await storeRemembered(paths.database, config.memories.rememberedInjectionLimit),
    // The checkpoint's digest shares the agent's one cap with the block, measured JSON-escaped as the
    // block is (with the blank line between them).
    reserveChars: recovery ? JSON.stringify(`\n\n${recovery}`).length - 2 : 0,
  });
  const text = [injection.text, recovery ?? ""].filter((part) => part !== "").join("\n\n");
  logInjection(request, config.workers.continuity, injection.text, warnings);
  const stdout = renderForAgent(request.agent, text);
  const notRoot = nonRootReason(input, env);
  const run = notRoot
    ? { started: false, reason: notRoot }
    : (request.startRun ?? startBackgroundRun)({ home: request.home, env });
  return {
    stdout,
    injected: injection.text !== "",
    recovered: recovery !== undefined,
    run,
    warnings: [...injection.warnings, ...warnings],
  };
}

/**
 * Notes which remembered memories this session was given, for continuity scoring: a line appended to
 * the memory root's log (the start path never writes the store). Only when the agent names its session.
 */
function logInjection(
  request: SessionStartRequest,
  settings: { enabled: boolean; scoring: boolean },
  block: string,
  warnings: string[],
): void {
  const sessionId = request.input.session_id;
  if (!settings.enabled || !settings.scoring || typeof sessionId !== "string" || sessionId === "") return;
  const memoryIds = listedMemoryIds(block);
  if (memoryIds.length === 0) return;
  const written = appendInjection(request.home, {
    sessionId,
    agent: request.agent,
    at: (request.now ?? Date.now)(),
    memoryIds,
  });
  // The block is still given; only this session's continuity score will be missing.
  if (!written) warnings.push(`could not note the memories given in ${request.home}; this session will not be scored`);
}

/**
 * The newest checkpoint's recovery block when the agent says this start follows a compaction or a clear
 * (Claude Code's `source`; Gemini CLI's `source` or `trigger`), within `recoveryBudgetChars`; undefined
 * otherwise. A store that cannot be read costs the block, with a warning, never the start.
 */
async function recoveryFor(
  request: SessionStartRequest,
  databasePath: string,
  cwd: string,
  settings: { enabled: boolean; recoveryBudgetChars: number },
  warnings: string[],
): Promise<string | undefined> {
  const { input } = request;
  const source = typeof input.source === "string" ? input.source : input.trigger;
  if (!settings.enabled || typeof source !== "string" || !resumesAfterReset(source.toLowerCase())) return undefined;
  try {
    return await storeRecovery(databasePath, {
      ...(typeof input.session_id === "string" && input.session_id !== "" ? { sessionKey: input.session_id } : {}),
      cwd,
      now: (request.now ?? Date.now)(),
      budget: settings.recoveryBudgetChars,
    });
  } catch (error) {
    warnings.push(`checkpoint left out: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
    return undefined;
  }
}

/**
 * Claude Code and Gemini CLI read `hookSpecificOutput.additionalContext` from their hook JSON (Gemini CLI
 * shows plain text to the user instead of giving it to the model); other agents take stdout as text.
 */
export function renderForAgent(agent: string, text: string): string {
  if (text === "") return "";
  if (agent === "claude-code" || agent === "gemini") {
    return `${JSON.stringify({ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: text } })}\n`;
  }
  return `${text}\n`;
}

/**
 * Why this start is not a root interactive session, or undefined when it is. Only root sessions start
 * the pipeline (as in Codex): sub-agents, compaction restarts and non-interactive runs would otherwise
 * start it many times per task.
 */
export function nonRootReason(input: Record<string, unknown>, env: NodeJS.ProcessEnv): string | undefined {
  if (typeof input.agent_id === "string" || typeof input.parent_session_id === "string") return "a sub-agent session";
  const source = typeof input.source === "string" ? input.source.toLowerCase() : "";
  if (source === "compact") return "a compaction, not a new session";
  if (["exec", "subagent", "sub_agent", "internal"].includes(source)) return `a ${source} session`;
  // Claude Code sets this to `sdk-*` for `claude -p` and SDK-driven runs.
  if (env.CLAUDE_CODE_ENTRYPOINT?.startsWith("sdk")) return "a non-interactive Claude Code run";
  return undefined;
}
