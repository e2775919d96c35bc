import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Cairn } from "../../src/cairn.js";
import { Collector } from "../../src/collection/collector.js";
import { withWriteTx } from "../../src/store/tx.js";
import { startFactModelServer } from "../lib/factModelServer.js";
const mode = process.argv[2]; const home = process.argv[3] ?? mkdtempSync(join(tmpdir(), "cairn-prof-"));
const server = await startFactModelServer({ delayMs: 0, itemsPerSession: 200 });
const cfg = (enabled: boolean) => ({ "llm.provider": "openai", "llm.baseUrl": server.baseUrl, "llm.model": "m", "llm.apiKey": "k", "memories.maxRolloutsPerStartup": 64, "extraction.scanLimit": 64, "extraction.runningCap": 64, "pipeline.enabled": enabled });
const c = new Cairn({ home, env: { HOME: home }, importLanes: false, config: cfg(mode === "facts") });
if (mode === "seed") {
  const now = Date.now(); const s = c.storage;
  const col = new Collector(s.sessions, s.items, { maxUnprocessedItems: 5, clock: () => now, projectKeyOf: () => "path:/srv/bench" });
  withWriteTx(s.db, () => { for (let i = 0; i < 64; i++) { const items = []; for (let j = 0; j < 200; j++) { const role = (["user","assistant","tool_call","tool_result"] as const)[j%4]; items.push({ key: `L${j}`, role, text: role.startsWith("tool") ? `pnpm test ${j}` : `step ${j} keep the API stable`, ...(role.startsWith("tool") ? { tool: "exec", callId: `c${j-(j%4)}` } : {}), origin: { file: "b", line: j } }); }
    col.apply({ session: { id: `bench-${i}`, agent: "codex", kind: "interactive", cwd: "/srv/bench", startedAt: now - 2e8, updatedAt: now - 1e8 }, items } as never, "bench"); col.end(`bench-${i}`); } });
  await c.extract(); console.log(home);
} else { const t = performance.now(); const r = await c.extract(); console.log("facts ms", performance.now() - t, JSON.stringify(r.facts)); }
c.close(); await server.close();
