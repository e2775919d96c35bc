import { homedir } from "node:os";
import { join, resolve } from "node:path";

/** The memory root: `$CAIRN_HOME`, else `~/.cairn`. */
export function cairnHome(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.CAIRN_HOME?.trim();
  return fromEnv ? resolve(fromEnv) : join(homedir(), ".cairn");
}

export interface CairnPaths {
  home: string;
  config: string;
  database: string;
  memories: string;
}

export function cairnPaths(home: string): CairnPaths {
  return {
    home,
    config: join(home, "config.yaml"),
    database: join(home, "cairn.db"),
    memories: join(home, "memories"),
  };
}
