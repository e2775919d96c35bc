import { z } from "zod";

/**
 * What a resumed read carries over: who the session is, the tip of the active branch (to notice a
 * rewind), and the tool calls still waiting for a result.
 */
const claudeStateSchema = z.object({
  v: z.literal(1),
  id: z.string(),
  kind: z.enum(["interactive", "exec", "subagent", "internal"]),
  parentId: z.string().optional(),
  subagent: z.boolean(),
  warmup: z.boolean(),
  cwd: z.string().nullable(),
  gitBranch: z.string().optional(),
  startedAt: z.number().optional(),
  updatedAt: z.number().optional(),
  tail: z.object({ uuids: z.array(z.string()), messageId: z.string().optional() }),
  tools: z.record(z.string(), z.string()),
  /** Item keys of the assistant message being written, so a block it repeats after the offset is not new. */
  messageKeys: z.array(z.string()),
});

export type ClaudeState = z.infer<typeof claudeStateSchema>;

/** A stored state from an older or foreign build is not trusted: the caller reads the whole file instead. */
export function parseClaudeState(value: unknown): ClaudeState | undefined {
  const parsed = claudeStateSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
