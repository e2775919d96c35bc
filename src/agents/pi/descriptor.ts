import type { AgentDescriptor } from "../types.js";
import { piFamily } from "./piFamily.js";

/** pi (badlogic/pi-mono): `~/.pi/agent` holds settings, `extensions/` and `sessions/`. */
export const pi = {
  name: "pi",
  displayName: "pi",
  environment: [{ name: "PI_CODING_AGENT_DIR", means: "pi's agent folder (default ~/.pi/agent)" }],
  ...piFamily("PI_CODING_AGENT_DIR", ".pi"),
  docs: [
    "https://github.com/badlogic/pi-mono/blob/main/packages/coding-agent/docs/extensions.md",
    "https://github.com/badlogic/pi-mono/blob/main/packages/coding-agent/README.md",
  ],
} as const satisfies AgentDescriptor;
