import type { EmptyRecallReason } from "../memory/types.js";
import { redactText } from "../redact/redact.js";
import { singleLine } from "./quoteMemory.js";

/**
 * Why a recall found nothing: the scopes it searched and how many live memories each holds, so "no
 * match" is told apart from "nothing to search". `project` says why the searched project holds none
 * (called only then). The query is quoted redacted, before it is cut: the reason leaves through every
 * door (CLI, library, HTTP, MCP), and a secret pasted into a query is not handed back.
 */
export function emptyRecallReason(options: {
  query: string;
  scopes: string[] | "all";
  /** Live memories per scope in the whole store. */
  byScope: Record<string, number>;
  /** The project searched, and why it has no memory (undefined: its workspace has some to inject). */
  project?: { key: string; reason: () => { code: string; message: string } | undefined };
  /** How the caller's door asks for every scope (`--scope all` on the CLI, the `scope: "all"` argument elsewhere). */
  everyScope?: string;
}): EmptyRecallReason {
  const { scopes, byScope } = options;
  const memories = scopes === "all" ? byScope : Object.fromEntries(scopes.map((scope) => [scope, byScope[scope] ?? 0]));
  const total = Object.values(memories).reduce((sum, count) => sum + count, 0);
  const searched =
    scopes === "all"
      ? "every scope"
      : Object.entries(memories)
          .map(([scope, count]) => `${scope} (${count} ${count === 1 ? "memory" : "memories"})`)
          .join(", ");
  if (total > 0)
    return {
      code: "no_match",
      message: `no memory matched "${singleLine(redactText(options.query), 80)}" in ${searched}${scopes === "all" ? ` (${total} ${total === 1 ? "memory" : "memories"})` : ""}; try other words${scopes === "all" ? "" : `, or ${options.everyScope ?? 'scope: "all"'}`}`,
      scopes,
      memories,
    };
  const project = options.project && (memories[options.project.key] ?? 0) === 0 ? options.project.reason() : undefined;
  return {
    code: "no_memory",
    message: `nothing to search: ${searched} ${scopes !== "all" && scopes.length === 1 ? "holds" : "hold"} no memory yet${project ? `; ${project.message}` : ""}`,
    scopes,
    memories,
    ...(project ? { project: { code: project.code, message: project.message } } : {}),
  };
}
