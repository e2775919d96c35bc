import type { ExportedMemory } from "../requests/memoryTransfer.js";
import { memoryTypes } from "./types.js";

/**
 * A readable copy of exported memories: one Markdown file per scope (a project, global or a label),
 * its memories grouped by type, each with when it was said, where it came from and what it replaced.
 * Keyed by file name. Takes export lines, so it shows only what an export would (guarded text).
 */
export function memoryMarkdown(memories: readonly ExportedMemory[]): Map<string, string> {
  const byId = new Map(memories.map((memory) => [memory.id, memory]));
  const replaced = new Map<number, ExportedMemory[]>();
  for (const memory of memories)
    if (memory.supersededBy !== null)
      replaced.set(memory.supersededBy, [...(replaced.get(memory.supersededBy) ?? []), memory]);
  const files = new Map<string, string>();
  const scopes = [...new Set(memories.map((memory) => memory.scope))].sort();
  const names = new Set<string>();
  for (const scope of scopes) {
    const name = uniqueName(fileNameOf(scope), names);
    const inScope = memories.filter((memory) => memory.scope === scope);
    const out = [`# ${scope}`, "", `${inScope.length} ${inScope.length === 1 ? "memory" : "memories"}.`, ""];
    const types = [...memoryTypes, ...new Set(inScope.map((memory) => memory.type))];
    for (const type of new Set(types)) {
      const ofType = inScope.filter((memory) => memory.type === type && memory.state === "live");
      if (ofType.length === 0) continue;
      out.push(`## ${type}`, "");
      for (const memory of ofType) out.push(...entry(memory, replaced), "");
    }
    const gone = inScope.filter((memory) => memory.state !== "live");
    if (gone.length > 0) {
      out.push("## Forgotten or replaced", "");
      for (const memory of gone) {
        const by = memory.supersededBy === null ? undefined : byId.get(memory.supersededBy);
        const fate =
          memory.state === "forgotten"
            ? `forgotten ${day(memory.deletedAt)}`
            : `replaced ${day(memory.supersededAt)}${by ? ` by #${by.id}` : ""}`;
        out.push(...entry(memory, replaced), `  - ${fate}`, "");
      }
    }
    files.set(name, `${out.join("\n").trimEnd()}\n`);
  }
  return files;
}

function entry(memory: ExportedMemory, replaced: Map<number, ExportedMemory[]>): string[] {
  const lines = [`- ${memory.content} (#${memory.id})`];
  const said = `said ${day(memory.occurredAt ?? memory.createdAt)}`;
  const who = memory.who ? `, by ${memory.who}` : "";
  lines.push(`  - ${said}${who}${memory.ref ? `, ref ${memory.ref}` : ""}`);
  const { sessionId, itemFrom, itemTo } = memory.provenance;
  if (sessionId) {
    const items =
      itemFrom === undefined
        ? ""
        : `, items ${itemFrom}${itemTo !== undefined && itemTo !== itemFrom ? `-${itemTo}` : ""}`;
    lines.push(`  - from session ${sessionId}${items}`);
  }
  if (memory.why) lines.push(`  - why: ${memory.why}`);
  for (const old of replaced.get(memory.id) ?? [])
    lines.push(`  - replaced #${old.id} (${day(old.supersededAt)}): ${old.content}`);
  return lines;
}

function day(at: number | null): string {
  return at === null ? "(unknown date)" : new Date(at).toISOString().slice(0, 10);
}

/** A scope as a file name: a project key may hold slashes, colons and the like. */
function fileNameOf(scope: string): string {
  const safe = scope.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^[-.]+|-+$/g, "");
  return `${safe.length > 0 ? safe.slice(0, 100) : "scope"}.md`;
}

function uniqueName(name: string, taken: Set<string>): string {
  let candidate = name;
  for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = name.replace(/\.md$/, `-${n}.md`);
  taken.add(candidate.toLowerCase());
  return candidate;
}
