import { type SessionStartResult, sessionStartHook } from "../../src/connectors/sessionStartHook.js";
import type { TempHome } from "../server/tempHome.js";

/**
 * Claude Code's session-start hook run in the temp home's project, as the agent runs it (no background
 * run started), and the context it hands the model.
 */
export async function claudeCodeStart(temp: TempHome): Promise<{ result: SessionStartResult; context: string }> {
  const result = await sessionStartHook({
    agent: "claude-code",
    home: temp.home,
    input: { cwd: temp.project, source: "startup" },
    env: temp.env,
    startRun: () => ({ started: false, reason: "test" }),
  });
  return { result, context: JSON.parse(result.stdout).hookSpecificOutput.additionalContext };
}
