import { CairnError } from "../util/errors.js";
import { claudeCodeConnector } from "./claudeCodeConnector.js";
import { codexConnector } from "./codexConnector.js";
import { type Connector, connectorAgents } from "./types.js";

const byAgent: Record<string, Connector> = {
  [claudeCodeConnector.agent]: claudeCodeConnector,
  [codexConnector.agent]: codexConnector,
};

export function connectorFor(agent: string): Connector {
  const connector = byAgent[agent];
  if (!connector) {
    throw new CairnError("bad_input", `no connector for '${agent}'; available: ${connectorAgents.join(", ")}`);
  }
  return connector;
}
