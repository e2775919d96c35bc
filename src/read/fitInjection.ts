import { fillTemplate } from "../prompts/template.js";
import type { InjectionBudget } from "./injectionBudget.js";
import { fencedBlock } from "./quoteMemory.js";

/** One memory summary to inject, already neutralized (see quoteMemory.ts). */
export interface SummarySource {
  title: string;
  /** Where the model reads the whole file when the summary is cut. */
  url: string;
  text: string;
  /** What the cut note tells the model about the rest, when it is not a file at `url`. */
  rest?: string;
}

export interface SummaryFit {
  included: boolean;
  truncated: boolean;
  keptChars: number;
  totalChars: number;
}

interface Cut {
  source: SummarySource;
  kept: string;
  truncated: boolean;
}

/**
 * The guidance and the summaries within the budget. Summaries come in priority order: each keeps as
 * much as fits after the ones before it, cut at a line boundary (a trailing heading without its body
 * is dropped too), and once one is cut the ones after it are left out. The guidance is never cut and
 * every fence is closed, because fences are drawn around what was kept. A cut summary says, inside
 * its fence, how much was kept and which URL holds the rest. The guidance may depend on which
 * sources the block holds (a paragraph about a list the block does not give is left out): it is
 * rendered for each candidate set, so what fits is measured with the guidance it would carry.
 */
export function fitInjection(options: {
  guidance: string | ((included: readonly SummarySource[]) => string);
  sources: Array<SummarySource | undefined>;
  budget: InjectionBudget;
}): { text: string; fits: SummaryFit[] } {
  const { guidance, budget } = options;
  const render = (cuts: Cut[]) => {
    const block = cuts.map(renderCut).join("\n\n");
    const template = typeof guidance === "string" ? guidance : guidance(cuts.map((cut) => cut.source));
    return { block, text: fillTemplate(template, { memory_summary: block }).trimEnd() };
  };
  const fits = (cuts: Cut[]) => {
    const rendered = render(cuts);
    return budget.fits(budget.unit === "chars" ? rendered.text : rendered.block);
  };
  const kept: Cut[] = [];
  const report: SummaryFit[] = [];
  let cutBefore = false;
  for (const source of options.sources) {
    if (!source) {
      report.push({ included: false, truncated: false, keptChars: 0, totalChars: 0 });
      continue;
    }
    const cut: Cut | undefined = cutBefore ? undefined : fitOne(source, (candidate) => fits([...kept, candidate]));
    if (cut) kept.push(cut);
    cutBefore ||= !cut || cut.truncated;
    report.push({
      included: cut !== undefined,
      truncated: !cut || cut.truncated,
      keptChars: cut?.kept.length ?? 0,
      totalChars: source.text.length,
    });
  }
  return { text: kept.length > 0 ? render(kept).text : "", fits: report };
}

/** The longest prefix of the summary that fits: whole, else whole lines, else part of the first line. */
function fitOne(source: SummarySource, fits: (cut: Cut) => boolean): Cut | undefined {
  const whole: Cut = { source, kept: source.text, truncated: false };
  if (fits(whole)) return whole;
  const attempt = (end: number): Cut => ({ source, kept: trimDangling(source.text.slice(0, end)), truncated: true });
  const lineEnds = [...source.text.matchAll(/\n/g)].map((match) => match.index);
  const line = largestFitting(lineEnds.length, (i) => fits(attempt(lineEnds[i] ?? 0)));
  if (line >= 0 && attempt(lineEnds[line] ?? 0).kept !== "") return attempt(lineEnds[line] ?? 0);
  // Not even the first line fits (one very long line): cut it at a word boundary.
  const firstLine = lineEnds[0] ?? source.text.length;
  const end = largestFitting(firstLine, (i) => fits(attempt(wordBoundary(source.text, i + 1))));
  if (end >= 0) return attempt(wordBoundary(source.text, end + 1));
  const empty: Cut = { source, kept: "", truncated: true };
  return fits(empty) ? empty : undefined;
}

function renderCut(cut: Cut): string {
  const { source, kept } = cut;
  const note = cut.truncated
    ? `[... cut to fit the agent's context: ${kept.length} of ${source.text.length} characters shown; ${source.rest ?? `read ${source.url} for the rest`}]`
    : undefined;
  return fencedBlock(source.title, kept, note);
}

/** Without trailing blank lines and headings whose section was cut away. */
function trimDangling(text: string): string {
  const lines = text.split("\n");
  while (lines.length > 0 && /^\s*(#{1,6}\s.*)?$/.test(lines.at(-1) ?? "")) lines.pop();
  return lines.join("\n");
}

/** `end`, moved back to the last space before it when there is one, never inside a surrogate pair. */
function wordBoundary(text: string, end: number): number {
  const space = text.lastIndexOf(" ", end);
  let cut = space > 0 && space >= end / 2 ? space : end;
  const code = text.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut -= 1;
  return cut;
}

/** The largest i in [0, n) with test(i), for a test that holds up to some i and fails after; -1 if none. */
function largestFitting(n: number, test: (i: number) => boolean): number {
  let low = -1;
  let high = n;
  while (high - low > 1) {
    const middle = (low + high) >> 1;
    if (test(middle)) low = middle;
    else high = middle;
  }
  return low;
}
