/**
 * What cairn knows of one coding agent, as data. Each agent's folder under `src/agents/` holds one
 * `descriptor.ts`; `registry.ts` lists them, and the config schema, the scanner's default folders, the
 * injection and MCP budgets and `cairn install` derive from that list (docs/contributing/add-an-agent.md).
 *
 * Expects: nothing here imports an adapter or a connector. The config schema and the start hook read
 * the registry on every command, so it must stay data; the adapters (`src/sources/registry.ts`) and the
 * connectors (`src/connectors/connectors.ts`) are bound to it in maps the compiler checks are complete.
 */

/** An environment variable the agent itself reads, and what it moves. */
export interface AgentVariable {
  name: string;
  means: string;
}

/**
 * What a session-start hook or context file may carry into the agent's context. `chars`: the agent
 * documents a hard cap on the text (the whole block is fitted to `cap - margin`, counted as the agent
 * counts it); `tokens`: no documented cap, so the user's `memories.summaryInjectionTokenLimit` rules.
 */
export type InjectionLimit =
  | { unit: "chars"; cap: number; margin: number; doc: string }
  | { unit: "tokens"; why: string };

/** What one MCP tool result may hold: UTF-8 bytes and lines, the note about the rest included. */
export interface ToolTextBudget {
  bytes: number;
  lines: number;
}

/**
 * How the agent's MCP client takes tool results. `clientName` is the name it gives in `initialize`, when
 * known; `toolText` is its documented limit. A client with no known name or limit gets the smallest
 * budget of all agents: a result in parts always arrives, one cut in its middle by the client does not.
 */
export interface McpLimit {
  clientName?: string;
  toolText?: ToolTextBudget & { doc: string };
}

/**
 * `cairn install <agent>`: a connector exists (bound in `src/connectors/connectors.ts`), or the reason
 * there is none and the agent documentation that says so.
 */
export type AgentInstall = { connector: true } | { connector: false; reason: string; doc: string };

export interface AgentDescriptor {
  /** The agent's id everywhere: stored sessions, `sources.<name>` in the config, `--agent`, `cairn install <name>`. */
  name: string;
  /** How the agent calls itself ("Claude Code"), for messages to the user. */
  displayName: string;
  /** The variables the agent reads that move its folders; both the scan and the connector honour them. */
  environment: readonly AgentVariable[];
  /** The agent's own configuration folder, where a connector writes (`home`: the user's home). */
  configFolder(env: NodeJS.ProcessEnv, home: string): string;
  /** Where the agent keeps its sessions: what `cairn scan` walks unless `sources.<name>` says otherwise. */
  sessionFolders(env: NodeJS.ProcessEnv, home: string): string[];
  injection: InjectionLimit;
  mcp: McpLimit;
  install: AgentInstall;
  /** The agent's documentation (or source) for where its sessions and settings live. */
  docs: readonly string[];
}
