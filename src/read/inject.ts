import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fillTemplate, loadPrompt } from "../prompts/template.js";
import { tokenCount, truncateToTokens } from "../util/tokens.js";
import { workspaceForCwd } from "../workspace/projectIndex.js";
import { globalWorkspace } from "../workspace/workspacePaths.js";

export interface Injection {
  /** The whole block for the agent's context; empty when there is no memory to give. */
  text: string;
  project: { key: string; name: string; included: boolean; truncated: boolean };
  global: { included: boolean; truncated: boolean };
  /** Tokens of the memory summaries inside the block. */
  summaryTokens: number;
}

/**
 * The Memory Guidance block a session starting in `cwd` receives: the shipped guidance template and the
 * project and global memory summaries, together within the token limit. The project keeps its share
 * first, because a repository's own memory matters most in that repository. Reads files only: no
 * database, no model, so it is fast enough for an agent's start hook.
 */
export function buildInjection(options: { memoriesRoot: string; cwd: string; tokenLimit: number }): Injection {
  const workspace = workspaceForCwd(options.memoriesRoot, options.cwd);
  const project = { key: workspace.key, name: workspace.name };
  const projectSummary = readSummary(join(workspace.dir, "memory_summary.md"));
  const globalSummary = readSummary(join(globalWorkspace(options.memoriesRoot).dir, "memory_summary.md"));
  const result: Injection = {
    text: "",
    project: { ...project, included: false, truncated: false },
    global: { included: false, truncated: false },
    summaryTokens: 0,
  };
  let remaining = options.tokenLimit;
  const parts: string[] = [];
  // Every token covers at least one byte: when both summaries fit in bytes, the tokenizer (slow to
  // load) is not needed at all, which keeps the start hook fast.
  const bytes = Buffer.byteLength(projectSummary ?? "") + Buffer.byteLength(globalSummary ?? "");
  const count = bytes <= options.tokenLimit - 40 ? (text: string) => Buffer.byteLength(text) : tokenCount;
  const fitBudget = (text: string, limit: number) => {
    const tokens = count(text);
    if (tokens <= limit - 20) return { text, tokens, truncated: false };
    const cut = truncateToTokens(text, Math.max(0, limit - 20));
    return { text: cut.text, tokens: tokenCount(cut.text), truncated: cut.truncated };
  };
  if (projectSummary) {
    const cut = fitBudget(projectSummary, remaining);
    remaining -= cut.tokens;
    parts.push(quoted(`Project memory (${project.name}), memory://root/memory_summary.md`, cut.text, cut.truncated));
    result.project.included = true;
    result.project.truncated = cut.truncated;
  }
  if (globalSummary && remaining > 50) {
    const cut = fitBudget(globalSummary, remaining);
    remaining -= cut.tokens;
    parts.push(quoted("Global memory, memory://global/memory_summary.md", cut.text, cut.truncated));
    result.global.included = true;
    result.global.truncated = cut.truncated;
  }
  if (parts.length === 0) return result;
  result.summaryTokens = options.tokenLimit - remaining;
  result.text = fillTemplate(loadPrompt("read_path.md"), { memory_summary: parts.join("\n\n") }).trimEnd();
  return result;
}

function readSummary(path: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
  // The first line is the format version, not content.
  const body = text.replace(/^v\d+\s*\n/, "").trim();
  return body.length > 0 ? body : undefined;
}

/** Memory as quoted data: a fence that the memory text cannot close, under a heading naming its source. */
function quoted(title: string, text: string, truncated: boolean): string {
  const longestRun = Math.max(3, ...[...text.matchAll(/`+/g)].map((match) => match[0].length + 1));
  const fence = "`".repeat(longestRun);
  const note = truncated ? "\n[... truncated to fit the memory budget; read the file for the rest]" : "";
  return `### ${title}\n${fence}text\n${text}${note}\n${fence}`;
}
