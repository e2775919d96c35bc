import { agentDescriptor, type ConnectorAgent, connectorAgents } from "../agents/registry.js";
import { CairnError } from "../util/errors.js";
import { claudeCodeConnector } from "./claudeCodeConnector.js";
import { codexConnector } from "./codexConnector.js";
import { geminiConnector } from "./geminiConnector.js";
import { opencodeConnector } from "./opencodeConnector.js";
import { ompConnector, piConnector } from "./piConnector.js";
import type { Connector } from "./types.js";

/**
 * Each agent whose descriptor says it has a connector, and that connector: a registered agent with
 * `install: { connector: true }` and no entry here does not compile.
 */
const byAgent: { readonly [agent in ConnectorAgent]: Connector } = {
  "claude-code": claudeCodeConnector,
  codex: codexConnector,
  gemini: geminiConnector,
  opencode: opencodeConnector,
  pi: piConnector,
  omp: ompConnector,
};

export function connectorFor(agent: string): Connector {
  const connector = (connectorAgents as readonly string[]).includes(agent)
    ? byAgent[agent as ConnectorAgent]
    : undefined;
  if (connector) return connector;
  const install = agentDescriptor(agent)?.install;
  const why = install && !install.connector ? ` (${install.reason}: ${install.doc})` : "";
  throw new CairnError("bad_input", `no connector for '${agent}'${why}; available: ${connectorAgents.join(", ")}`);
}
