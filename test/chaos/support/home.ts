import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "yaml";
import { tempDir } from "../../helpers/tempDir.js";

export interface ChaosHome {
  /** Temp root holding everything below. */
  root: string;
  /** CAIRN_HOME. */
  home: string;
  codex: string;
  claude: string;
  /** A HOME for the child, so no adapter ever looks at this machine's real agent folders. */
  userHome: string;
  writeConfig(extra?: Record<string, Record<string, unknown>>): void;
}

/** The settings every chaos suite shares: old sessions are eligible at once, leases are short. */
export function baseConfig(codex: string, claude: string, empty: string): Record<string, Record<string, unknown>> {
  return {
    memories: { enabled: true, maxRolloutAgeDays: 3650, minRolloutIdleHours: 0 },
    collection: { idleHours: 0 },
    queue: { leaseSeconds: 5, phase2LeaseSeconds: 5 },
    sources: { codex: [codex], "claude-code": [claude], pi: [empty], omp: [empty], gemini: [empty], opencode: [empty] },
  };
}

export function makeChaosHome(prefix: string): ChaosHome {
  const root = tempDir(`cairn-${prefix}-`);
  const home = join(root, "cairn");
  const codex = join(root, "codex");
  const claude = join(root, "claude");
  const userHome = join(root, "user");
  const empty = join(root, "empty");
  for (const dir of [home, codex, claude, userHome, empty]) mkdirSync(dir, { recursive: true });
  return {
    root,
    home,
    codex,
    claude,
    userHome,
    writeConfig(extra = {}) {
      const config = baseConfig(codex, claude, empty);
      for (const [section, values] of Object.entries(extra)) config[section] = { ...config[section], ...values };
      writeFileSync(join(home, "config.yaml"), stringify(config));
    },
  };
}

/** The child's environment: this home, the fake provider, and nothing from the caller's agent setup. */
export function chaosEnv(home: ChaosHome, providerBaseUrl?: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: home.userHome,
    CAIRN_HOME: home.home,
    NO_COLOR: "1",
    ...(providerBaseUrl
      ? {
          CAIRN_LLM_PROVIDER: "openai",
          CAIRN_LLM_BASE_URL: providerBaseUrl,
          CAIRN_LLM_MODEL: "fake-model",
          CAIRN_LLM_API_KEY: "sk-test-not-a-secret",
        }
      : { CAIRN_LLM_PROVIDER: "offline" }),
  };
}
