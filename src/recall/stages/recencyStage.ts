import type { RecallConfig } from "../../config/recallConfig.js";
import { aboutOtherNamedThings, namedThings } from "../../text/otherNamedThings.js";
import { aboutOtherOccasions, reportedOccasion } from "../../text/reportedOccasion.js";
import { saysChange, spokenLine } from "../../text/saysChange.js";
import { byScoreDesc, type Candidate } from "../candidate.js";
import { newerAboveDoubted } from "../newerAboveDoubted.js";
import { leadingCodeSpan, subjectOverlap, subjectWords, swappedSubject } from "../sameSubject.js";
import type { RecallStage } from "../stage.js";

/**
 * Recency between memories on the same subject: when two candidates near the top are about the same
 * thing (same scope, `subjectOverlap` at least `minOverlap` both with every word counted once and
 * with words weighted by their IDF), the newer one (occurredAt, else when it was stored) takes the
 * better of the two places. A knowledge update often leaves what it replaced in place (stated in
 * another session, in other words); when both come back, the later statement is the one that
 * holds. Each memory is paired at most once, with the memory it shares most with; only the two
 * places of a pair change hands, so unrelated memories keep their scores and order, and no memory
 * enters or leaves the window.
 */
export function recencyStage(options: RecallConfig["recency"]): RecallStage {
  const byWords = wordRecencyStage(options);
  if (!options.flagged) return byWords;
  // Then the pairs an open review flag joins (the detectors' reading of one subject), over the places
  // the words left them in.
  return {
    ...byWords,
    apply(ctx, candidates) {
      const out = byWords.apply(ctx, candidates) as Candidate[];
      newerAboveDoubted(ctx.deps.reviews, out, ctx.k);
      return out;
    },
  };
}

/** The pairs by their words (below); synchronous. */
function wordRecencyStage(options: RecallConfig["recency"]): RecallStage {
  const window = (ctx: { k: number }, candidates: Candidate[]) =>
    [...candidates].sort(byScoreDesc).slice(0, Math.max(options.window, ctx.k));
  return {
    name: "recency",
    needsContent: window,
    apply(ctx, candidates) {
      const head = window(ctx, candidates);
      if (head.length < 2) return candidates;
      const words = new Map(head.map((c) => [c.id, subjectWords(c.content ?? "")]));
      const leads = new Map(head.map((c) => [c.id, leadingCodeSpan(c.content ?? "")]));
      const occasions = new Map(head.map((c) => [c.id, reportedOccasion(c.content ?? "")]));
      const things = new Map(head.map((c) => [c.id, namedThings(c.content ?? "")]));
      const plain = new Set<string>();
      // Two statements that open with the same command or file are about it, however they word the rest.
      const sameLead = new Set<string>();
      for (let i = 0; i < head.length; i++) {
        for (let j = i + 1; j < head.length; j++) {
          const [a, b] = [head[i]!, head[j]!];
          if (a.ref.scope !== b.ref.scope) continue;
          // Reports of different commands or errors are two records, each true: neither is the newer word.
          if (aboutOtherOccasions(occasions.get(a.id), occasions.get(b.id))) continue;
          // Two numbered things, numbered notes or environments are two subjects, however alike.
          if (aboutOtherNamedThings(things.get(a.id)!, things.get(b.id)!)) continue;
          if (subjectOverlap(words.get(a.id)!, words.get(b.id)!) >= options.minOverlap) plain.add(`${a.id}:${b.id}`);
          const lead = leads.get(a.id);
          if (lead !== undefined && lead === leads.get(b.id)) sameLead.add(`${a.id}:${b.id}`);
        }
      }
      // Counted by rarity too: words most memories of the store use (a speaker's or the project's
      // name) cannot make two memories the same subject alone. Looked up for the few close pairs only.
      const close = new Set([...plain].flatMap((key) => key.split(":").map(Number)));
      const frequencies = ctx.deps.search.documentFrequencies([
        ...new Set(head.filter((c) => close.has(c.id)).flatMap((c) => words.get(c.id)!)),
      ]);
      const corpus = Math.max(1, ctx.deps.search.corpusSizeEstimate());
      const idf = (word: string) => Math.log(1 + corpus / Math.max(1, frequencies.get(word) ?? 0));
      const pairs =
        plain.size === 0 && sameLead.size === 0
          ? []
          : sameSubjectPairs(head, (a, b) => {
              const key = `${a.id}:${b.id}`;
              const shared = plain.has(key) ? subjectOverlap(words.get(a.id)!, words.get(b.id)!, idf) : 0;
              return sameLead.has(key) ? Math.max(shared, options.minOverlap) : shared;
            }).filter((pair) => pair.overlap >= options.minOverlap);
      const asked = new Set(ctx.query.stems);
      const taken = new Set(pairs.flatMap((pair) => [pair.a.id, pair.b.id]));
      const apart = (a: Candidate, b: Candidate) =>
        a.ref.scope !== b.ref.scope ||
        aboutOtherOccasions(occasions.get(a.id), occasions.get(b.id)) ||
        aboutOtherNamedThings(things.get(a.id)!, things.get(b.id)!);
      // Only among what the answer shows: a loose pair must not bring a memory in from below the cut.
      const shown = [...candidates].sort(byScoreDesc).slice(0, ctx.k);
      const changes = changePairs(shown, taken, words, asked, apart);
      if (pairs.length === 0 && changes.length === 0) return candidates;
      const ids = [...pairs, ...changes].flatMap((pair) => [pair.a.id, pair.b.id]);
      const times = new Map(
        ctx.deps.memories.getLive(ids, { scopes: "all" }).map((m) => [m.id, m.occurredAt ?? m.createdAt]),
      );
      const timeOf = (c: Candidate) => times.get(c.id) ?? 0;
      // A statement of change and an older memory that share what the question asks about, when the
      // older names nothing of the question the newer leaves out: the newer is what holds now.
      for (const { a: change, b: other } of changes) {
        const [newer, older] = newerOlder(change, other, timeOf);
        if (newer !== change || timeOf(newer) === timeOf(older)) continue;
        const inNewer = new Set(words.get(newer.id)!);
        if (words.get(older.id)!.some((word) => asked.has(word) && !inNewer.has(word))) continue;
        newerAbove(newer, older, timeOf);
      }
      for (const { a, b } of pairs) {
        const [newer, older] = newerOlder(a, b, timeOf);
        // The same statement about two things, and the question names the older one's thing: the
        // newer is about something else ("the orders service" asked, "the search service" newer).
        const named = swappedSubject(words.get(older.id)!, words.get(newer.id)!);
        if (named !== undefined && asked.has(named)) continue;
        // The question names something only the older memory names ("the android builds", "the primary
        // host"), and the newer does not say it changed anything: two things alike, and the question
        // asks for the older one's. A newer memory that says it is a change may name its subject in
        // other words ("the team switched from yarn to bun" for "which command installs packages?").
        if (!saysChange(newer.content ?? "") && namesOlderOnly(asked, words.get(older.id)!, words.get(newer.id)!))
          continue;
        newerAbove(a, b, timeOf);
      }
      return candidates;
    },
  };
}

/**
 * Pairs of a candidate that says it is a change (`saysChange`) with the candidate not yet paired that
 * shares most of the question's words with it (`MIN_SHARED` at least): a change is often said in words of its
 * own, far below the overlap that pairs two statements of one fact, and what both share of the
 * question is what it changed. Each candidate in at most one pair.
 */
/** Words of the question a loose pair shares at least: one ("user", "service") most memories share. */
const MIN_SHARED = 2;

function changePairs(
  head: Candidate[],
  taken: ReadonlySet<number>,
  words: ReadonlyMap<number, string[]>,
  asked: ReadonlySet<string>,
  apart: (a: Candidate, b: Candidate) => boolean,
): Array<{ a: Candidate; b: Candidate }> {
  const used = new Set(taken);
  const out: Array<{ a: Candidate; b: Candidate }> = [];
  for (const change of head) {
    // In talk "now" tells what someone does lately, not that a fact changed (`spokenLine`).
    if (used.has(change.id) || !saysChange(change.content ?? "") || spokenLine(change.content ?? "")) continue;
    const mine = new Set(words.get(change.id)!.filter((word) => asked.has(word)));
    let best: Candidate | undefined;
    let bestShared = 0;
    for (const other of head) {
      if (other === change || used.has(other.id) || apart(change, other)) continue;
      const shared = words.get(other.id)!.filter((word) => mine.has(word)).length;
      if (shared > bestShared) [best, bestShared] = [other, shared];
    }
    if (!best || bestShared < MIN_SHARED) continue;
    used.add(change.id);
    used.add(best.id);
    out.push({ a: change, b: best });
  }
  return out;
}

/**
 * Pairs of candidates with their overlap, each candidate in at most one pair: the most similar
 * pairs are taken first. Pairs that share nothing are left out.
 */
export function sameSubjectPairs(
  head: Candidate[],
  overlap: (a: Candidate, b: Candidate) => number,
): Array<{ a: Candidate; b: Candidate; overlap: number }> {
  const all: Array<{ a: Candidate; b: Candidate; overlap: number }> = [];
  for (let i = 0; i < head.length; i++) {
    for (let j = i + 1; j < head.length; j++) {
      const value = overlap(head[i]!, head[j]!);
      if (value > 0) all.push({ a: head[i]!, b: head[j]!, overlap: value });
    }
  }
  all.sort((x, y) => y.overlap - x.overlap);
  const taken = new Set<number>();
  return all.filter(({ a, b }) => {
    if (taken.has(a.id) || taken.has(b.id)) return false;
    taken.add(a.id);
    taken.add(b.id);
    return true;
  });
}

/**
 * Whether the two name different things and the question names the older one's: it holds a subject
 * word of the older memory that the newer lacks, and the newer has a word of its own in its place
 * ("android" / "ios"). A newer memory that only drops a word ("by default the API listens on 3000" /
 * "the API listens on 8080") restates the same thing.
 */
function namesOlderOnly(asked: ReadonlySet<string>, older: readonly string[], newer: readonly string[]): boolean {
  const inNewer = new Set(newer);
  const inOlder = new Set(older);
  return older.some((word) => asked.has(word) && !inNewer.has(word)) && newer.some((word) => !inOlder.has(word));
}

/** The pair as [newer, older] by `timeOf`; equal times keep the order given. */
function newerOlder(a: Candidate, b: Candidate, timeOf: (c: Candidate) => number): [Candidate, Candidate] {
  return timeOf(a) >= timeOf(b) ? [a, b] : [b, a];
}

/** Exchanges the two scores when the newer memory holds the lower one; equal times change nothing. */
export function newerAbove(a: Candidate, b: Candidate, timeOf: (c: Candidate) => number): void {
  const [newer, older] = newerOlder(a, b, timeOf);
  if (timeOf(newer) === timeOf(older) || newer.score >= older.score) return;
  [newer.score, older.score] = [older.score, newer.score];
  newer.sources.add("recency");
}
