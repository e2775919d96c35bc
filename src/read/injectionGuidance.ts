import { fillTemplate, loadPrompt } from "../prompts/template.js";

/** Which kinds of memory the block actually gives. */
export interface GivenMemory {
  /** A "Remembered" list (project or global). */
  remembered: boolean;
  /** The project's summary. */
  project: boolean;
  /** The global summary. */
  global: boolean;
}

/**
 * The Memory Guidance template (`read_path.md`) for the memory a block gives, its `{{memory_summary}}`
 * left for the block. Every session pays for the guidance in its context, so a paragraph about
 * something the block does not hold is left out: how to read and cite "Remembered" lines without a
 * list, the project's handbook without its summary, `memory://global/...` without a global summary.
 */
export function injectionGuidance(given: GivenMemory): string {
  const more = [
    ...(given.project
      ? ["`memory://root/MEMORY.md` (the full handbook), `memory://root/skills/<name>/SKILL.md` (procedures)"]
      : []),
    ...(given.global ? ["`memory://global/...` for cross-project memory"] : []),
  ];
  const citations = [
    ...(given.project ? ["memory://root/MEMORY.md"] : given.global ? ["memory://global/MEMORY.md"] : []),
    ...(given.project || given.global ? ["rollout_summaries/<file>.md"] : []),
    ...(given.remembered ? ["memory #<id>"] : []),
  ];
  return fillTemplate(loadPrompt("read_path.md"), {
    remembered_guidance: given.remembered ? loadPrompt("read_path_remembered.md") : "",
    more_guidance:
      more.length === 0
        ? ""
        : `- More is available (read it with \`cairn read <url>\` or the cairn MCP \`read\` tool): ${more.join("; and ")}.\n`,
    citation_examples: citations.map((line) => `  ${line}\n`).join(""),
    // Kept for the block, which fitInjection fills in.
    memory_summary: "{{memory_summary}}",
  });
}
