import { join } from "node:path";

/**
 * Where a test run's home directory and temp folders live, inside one folder per run. Every variable
 * an agent or cairn reads to find a home, a config folder or a temp dir points in there, so no test
 * (nor a CLI or fake agent it spawns, which inherits the environment) reads or writes the real ones.
 */
export function isolatedEnv(root: string): Record<string, string> {
  const home = join(root, "home");
  const tmp = join(root, "tmp");
  return {
    HOME: home,
    USERPROFILE: home,
    CAIRN_HOME: join(home, ".cairn"),
    CODEX_HOME: join(home, ".codex"),
    CLAUDE_CONFIG_DIR: join(home, ".claude"),
    GEMINI_CLI_HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_DATA_HOME: join(home, ".local", "share"),
    XDG_STATE_HOME: join(home, ".local", "state"),
    // Outside the home, whose emptiness the run checks: every built CLI a test starts keeps Node's
    // compile cache in the user's cache folder (src/cli/compileCache.ts), and a cache is no leftover.
    XDG_CACHE_HOME: join(root, "cache"),
    XDG_RUNTIME_DIR: join(root, "run"),
    TMPDIR: tmp,
    TMP: tmp,
    TEMP: tmp,
    // A recall or inject of the built CLI would start a resident process that outlives its test (until
    // its memory root is removed); the suites that test one set this themselves.
    CAIRN_RESIDENT_IDLE_MINUTES: "0",
  };
}

/**
 * Variables that would point a test at the real user's data, or send its loopback traffic through the
 * machine's proxy (providers honour HTTP(S)_PROXY); removed from the test environment.
 */
export const unsetVariables = [
  "OPENCODE_DB",
  "HTTP_PROXY",
  "http_proxy",
  "HTTPS_PROXY",
  "https_proxy",
  "NO_PROXY",
  "no_proxy",
] as const;
