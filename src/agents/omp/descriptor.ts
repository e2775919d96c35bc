import { piFamily } from "../pi/piFamily.js";
import type { AgentDescriptor } from "../types.js";

/** oh-my-pi (can1357/oh-my-pi), pi's fork: the same layout in `~/.omp/agent`. */
export const omp = {
  name: "omp",
  displayName: "oh-my-pi",
  environment: [{ name: "OMP_CODING_AGENT_DIR", means: "oh-my-pi's agent folder (default ~/.omp/agent)" }],
  ...piFamily("OMP_CODING_AGENT_DIR", ".omp"),
  docs: ["https://github.com/can1357/oh-my-pi/blob/main/packages/coding-agent/docs/extensions.md"],
} as const satisfies AgentDescriptor;
