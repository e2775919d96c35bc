import { claudeCode } from "./claudeCode/descriptor.js";
import { codex } from "./codex/descriptor.js";
import { gemini } from "./gemini/descriptor.js";
import { omp } from "./omp/descriptor.js";
import { opencode } from "./opencode/descriptor.js";
import { pi } from "./pi/descriptor.js";
import type { AgentDescriptor } from "./types.js";

/**
 * Every agent cairn reads and connects to, in the order scans walk them. The one list: the config
 * schema's `sources`, the scanner's default folders, `--agent` and `cairn install` names, the
 * injection and MCP budgets derive from it, and the adapter and connector maps must cover it.
 */
const registered = [codex, claudeCode, pi, omp, gemini, opencode] as const;

/** A registered agent's name. */
export type AgentId = (typeof registered)[number]["name"];

/** The registered agents that `cairn install` can wire. */
export type ConnectorAgent = Extract<(typeof registered)[number], { install: { connector: true } }>["name"];

/** The registered agents, each read through the common descriptor shape. */
export const agents: readonly (AgentDescriptor & { name: AgentId })[] = registered;

export const agentIds: readonly AgentId[] = agents.map((agent) => agent.name);

export function isAgentId(name: string): name is AgentId {
  return (agentIds as readonly string[]).includes(name);
}

/** The descriptor of a registered agent; undefined for any other name. */
export function agentDescriptor(name: string): (AgentDescriptor & { name: AgentId }) | undefined {
  return agents.find((agent) => agent.name === name);
}

/** The names of the agents `cairn install` can wire, in the registry's order. */
export const connectorAgents = agents
  .filter((agent) => agent.install.connector)
  .map((agent) => agent.name) as readonly ConnectorAgent[];
