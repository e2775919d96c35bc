import { z } from "zod";
import { type AgentId, agentIds } from "../agents/registry.js";
import { lazily } from "../util/lazily.js";

type FolderList = z.ZodOptional<z.ZodArray<z.ZodString>>;

/**
 * `sources.<agent>`: the folders a scan walks for that agent instead of its defaults, one key per
 * registered agent (src/agents/registry.ts); any other key is refused, naming it.
 */
export const sourcesConfigSchema = lazily(() =>
  z
    .object(
      Object.fromEntries(agentIds.map((agent) => [agent, z.array(z.string()).optional()])) as {
        [agent in AgentId]: FolderList;
      },
    )
    .strict()
    .prefault({}),
);
