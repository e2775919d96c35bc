import { CairnError } from "../util/errors.js";
import { claudeCodeConnector } from "./claudeCodeConnector.js";
import { codexConnector } from "./codexConnector.js";
import { geminiConnector } from "./geminiConnector.js";
import { opencodeConnector } from "./opencodeConnector.js";
import { ompConnector, piConnector } from "./piConnector.js";
import { type Connector, connectorAgents } from "./types.js";

const byAgent: Record<string, Connector> = {
  [claudeCodeConnector.agent]: claudeCodeConnector,
  [codexConnector.agent]: codexConnector,
  [geminiConnector.agent]: geminiConnector,
  [opencodeConnector.agent]: opencodeConnector,
  [piConnector.agent]: piConnector,
  [ompConnector.agent]: ompConnector,
};

export function connectorFor(agent: string): Connector {
  const connector = byAgent[agent];
  if (!connector) {
    throw new CairnError("bad_input", `no connector for '${agent}'; available: ${connectorAgents.join(", ")}`);
  }
  return connector;
}
