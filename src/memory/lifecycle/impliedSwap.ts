import { stem } from "../../text/stem.js";
import { words } from "../../text/tokenize.js";
import { isKnownTool, oneKindOfTool } from "../../text/toolKinds.js";
import type { Judgement } from "./judgement.js";
import { negatedWhereNamed, type StatementTokens } from "./statementTokens.js";
import { SAYS_CHANGE } from "./toolSwap.js";

/** Verbs of using or changing a tool: they say nothing of what the tool is used for. */
const USE_VERBS: ReadonlySet<string> = new Set(
  "use using uses used run runs running switch switched move moved migrate migrated change changed port ported adopt adopted replace replaced transition transitioned convert converted go went decide decided"
    .split(" ")
    .map(stem),
);

/** The table's tools a text names, lower-cased as written. */
function toolsIn(text: string): Set<string> {
  return new Set(words(text).filter(isKnownTool));
}

/** What a statement says beside its tools and the verbs of using them: the role the tool plays. */
function role(tokens: StatementTokens, tools: Set<string>): Set<string> {
  const toolStems = new Set([...tools].map(stem));
  return new Set([...tokens.subject].filter((word) => !toolStems.has(word) && !USE_VERBS.has(word)));
}

/** The tool a statement of change says it left: "instead of X", "from X to ...", "replaced X with ...". */
const LEFT_TOOL = /\binstead of\s+([\w.@/-]+)|\bfrom\s+([\w.@/-]+)\s+to\b|\breplaced\s+([\w.@/-]+)\s+with\b/i;

/** At most this many words of role, an older memory the newer one does not echo is worth a person's look. */
const SHORT_ROLE = 4;

/**
 * Detector (g): a newer memory says it changed to a tool without naming the one it left ("we moved to
 * pnpm", "our package manager is now pnpm", "we're using pnpm now"), and an older one names another
 * tool of the same kind (src/text/toolKinds.ts) as in use ("we use npm"). The kind decides the
 * subject: a package manager replaces a package manager, not the test runner. Sure when the older
 * memory says nothing beside its tool that the newer one does not say too; a short older memory that
 * says more (what the tool is used for) is for a person, since the change may be for another use;
 * when both say what the tool is for and share none of it, they are about two uses and nothing happens.
 */
export function impliedSwap(
  n: StatementTokens,
  o: StatementTokens,
  texts: { newer: string; older: string },
): Judgement | undefined {
  if (!SAYS_CHANGE.test(texts.newer)) return undefined;
  const newTools = toolsIn(texts.newer);
  const oldTools = toolsIn(texts.older);
  const added = [...newTools].filter((tool) => !oldTools.has(tool));
  const gone = [...oldTools].filter((tool) => !newTools.has(tool));
  const swaps = added.flatMap((to) => gone.filter((from) => oneKindOfTool(from, to)).map((from) => ({ from, to })));
  if (swaps.length !== 1) return undefined;
  const { from, to } = swaps[0]!;
  // A newer memory that names what it left ("x now uses valibot instead of joi") is an explicit move,
  // judged by the tool-swap detector against memories naming that tool; it says nothing of another
  // tool of the kind an older memory names ("we pin zod to 3.2").
  const left = LEFT_TOOL.exec(texts.newer);
  const leftName = (left?.[1] ?? left?.[2] ?? left?.[3])?.toLowerCase();
  if (leftName !== undefined && leftName !== from) return undefined;
  const names = (tool: string) => (clause: string) => words(clause).includes(tool);
  // "Never use npm" already agrees; "we no longer use pnpm" is no move to it.
  if (negatedWhereNamed(texts.older, names(from)) || negatedWhereNamed(texts.newer, names(to))) return undefined;
  const oldRole = role(o, oldTools);
  const newRole = role(n, newTools);
  const unsaid = [...oldRole].filter((word) => !newRole.has(word));
  const what = `tool change: ${from} -> ${to}`;
  if (unsaid.length === 0) return { verdict: "supersede", reason: what };
  const sharedRole = [...oldRole].some((word) => newRole.has(word));
  if (unsaid.length <= SHORT_ROLE && (newRole.size === 0 || sharedRole))
    return { verdict: "review", reason: `${what}; this memory says more than the tool, which may still hold` };
  return undefined;
}
