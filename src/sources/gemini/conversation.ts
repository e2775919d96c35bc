import type { ParseProblem } from "../types.js";

/** One message record as it stands after replay, with the line its final version came from (0 in .json). */
export interface GeminiMessage {
  key: string;
  record: Record<string, unknown>;
  line: number;
  /**
   * True when the message first appeared inside a `$set.messages` rewrite: the CLI inserts turns of its own
   * there (the compression summary), which are not something the user said.
   */
  inserted?: boolean;
}

/** A Gemini chat after replaying its file: header metadata (with `$set` patches applied) and messages in order. */
export interface GeminiConversation {
  meta: Record<string, unknown>;
  messages: GeminiMessage[];
  problems: ParseProblem[];
  /** Lines read and ignored on purpose (record shapes this reader does not know). */
  skipped: number;
}
