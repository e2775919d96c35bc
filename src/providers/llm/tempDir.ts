import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

/**
 * Runs `work` with a fresh private directory under os.tmpdir() and removes it afterwards, whatever
 * happens. The agent CLIs run inside it, so they see no repository and no AGENTS.md / CLAUDE.md
 * that would steer the answer, and their schema and answer files never collide between calls.
 */
export async function withTempDir<T>(prefix: string, work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
