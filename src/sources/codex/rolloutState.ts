import { z } from "zod";
import type { RolloutLine } from "./rolloutLine.js";

const kinds = ["interactive", "exec", "subagent", "internal"] as const;

/**
 * What a resumed read needs from the lines before its offset. Small on purpose: session metadata,
 * which stream the message text comes from, and the tool calls still waiting for their output.
 */
const codexStateSchema = z.object({
  v: z.literal(1),
  legacy: z.boolean(),
  id: z.string().optional(),
  kind: z.enum(kinds),
  cwd: z.string().nullable(),
  git: z
    .object({ branch: z.string().optional(), commit: z.string().optional(), remote: z.string().optional() })
    .optional(),
  parentId: z.string().optional(),
  startedAt: z.number().optional(),
  updatedAt: z.number().optional(),
  /** Text comes from `event_msg user_message/agent_message` when the file has them (no injected context). */
  userFromEvents: z.boolean(),
  assistantFromEvents: z.boolean(),
  /** call_id -> tool name, for calls whose output has not been seen yet. */
  openCalls: z.record(z.string(), z.string()),
  /** call_id -> tool name, for commands whose output said they were still running: their end event is the result. */
  runningCalls: z.record(z.string(), z.string()).default({}),
  /** Code-mode cell id -> the `exec` call that started it, for cells still running: a `wait` on it brings the result. */
  runningCells: z.record(z.string(), z.string()).default({}),
  /** `wait` call_id -> the cell id it waits on, until its output is read. */
  waitCalls: z.record(z.string(), z.string()).default({}),
});

export type CodexState = z.infer<typeof codexStateSchema>;

/** A stored state from an older or foreign build is not trusted: the caller reads the whole file instead. */
export function parseCodexState(value: unknown): CodexState | undefined {
  const parsed = codexStateSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

export function initialCodexState(legacy: boolean, lines: readonly RolloutLine[]): CodexState {
  return {
    v: 1,
    legacy,
    kind: "interactive",
    cwd: null,
    userFromEvents: lines.some((line) => isEventMessage(line, "user_message")),
    assistantFromEvents: lines.some((line) => isEventMessage(line, "agent_message")),
    openCalls: {},
    runningCalls: {},
    runningCells: {},
    waitCalls: {},
  };
}

export function isEventMessage(line: RolloutLine, type: "user_message" | "agent_message"): boolean {
  return line.type === "event_msg" && line.payload.type === type;
}
