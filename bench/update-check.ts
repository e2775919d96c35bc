/**
 * The update check: does cairn put the newer fact first and keep look-alikes apart on memories nobody
 * tuned to? The set (bench/lib/update-check/) holds update chains (a fact told as it was, then as it
 * is) and look-alike pairs (two facts that read alike and both hold), in projects, stacks and wording
 * of its own, with other memories between them over weeks. It goes through the library's `remember`
 * (lifecycle on: the revise job every write passes through), in date order, then each question is
 * recalled from its project, as an agent asks.
 *
 *   npm run bench:update-check [-- --json] [--set recall.key=value ...] [--misses]
 *
 * Scores: for update questions, the newest statement at rank 1 and above every older one; for look-alike
 * questions, the asked one at rank 1; the older statements of chains replaced or flagged at remember; and
 * every supersession or review flag between two memories that are not one chain (look-alikes wrongly linked).
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { openCairn } from "../src/cairn.js";
import { LOOK_ALIKES, OTHER_MEMORIES } from "./lib/update-check/lookAlikes.js";
import { UPDATE_CHAINS } from "./lib/update-check/updateChains.js";

interface Said {
  ref: string;
  scope: string;
  content: string;
  day: number;
  /** The chain a statement belongs to, and its place in it. */
  chain?: { index: number; step: number };
}

const DAY = 86_400_000;
const START = Date.UTC(2026, 2, 2);

/** Every statement with the day it was said: chains over weeks, pairs a few days apart, others between. */
function timeline(): Said[] {
  const said: Said[] = [];
  UPDATE_CHAINS.forEach((chain, c) => {
    const first = 1 + ((c * 7) % 20);
    chain.steps.forEach((content, step) => {
      said.push({
        ref: `u${c}.${step}`,
        scope: chain.scope,
        content,
        day: first + step * (12 + (c % 10)),
        chain: { index: c, step },
      });
    });
  });
  LOOK_ALIKES.forEach((pair, p) => {
    const first = 1 + ((p * 5) % 45);
    said.push({ ref: `l${p}.a`, scope: pair.scope, content: pair.first, day: first });
    said.push({ ref: `l${p}.b`, scope: pair.scope, content: pair.second, day: first + 1 + (p % 9) });
  });
  OTHER_MEMORIES.forEach((memory, o) => {
    said.push({ ref: `o${o}`, scope: memory.scope, content: memory.content, day: 1 + ((o * 3) % 60) });
  });
  return said
    .map((s, order) => ({ s, order }))
    .sort((a, b) => a.s.day - b.s.day || a.order - b.order)
    .map((x) => x.s);
}

const round = (x: number) => Math.round(x * 1000) / 1000;
const share = (hits: number, n: number) => (n === 0 ? 1 : round(hits / n));

async function run(): Promise<void> {
  const { values } = parseArgs({
    options: {
      json: { type: "boolean", default: false },
      misses: { type: "boolean", default: false },
      set: { type: "string", multiple: true, default: [] },
    },
  });
  const settings = Object.fromEntries(
    values.set.map((kv) => {
      const eq = kv.indexOf("=");
      if (eq < 1) throw new Error(`--set needs key=value (got ${kv})`);
      const raw = kv.slice(eq + 1);
      let value: unknown = raw;
      try {
        value = JSON.parse(raw);
      } catch {}
      return [kv.slice(0, eq), value];
    }),
  );
  const tmp = realpathSync(mkdtempSync(join(tmpdir(), "cairn-bench-update-")));
  const home = join(tmp, "cairn");
  mkdirSync(home);
  mkdirSync(join(tmp, "home"));
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: join(tmp, "home"),
    CAIRN_HOME: home,
    CAIRN_LLM_PROVIDER: "offline",
  };
  const cairn = openCairn({ home, env, config: settings, importLanes: false });
  const misses: string[] = [];
  try {
    const said = timeline();
    const outcomes = await cairn.remember(
      said.map((s) => ({
        content: s.content,
        scope: s.scope,
        ref: s.ref,
        type: "fact" as const,
        occurredAt: new Date(START + s.day * DAY).toISOString(),
      })),
    );
    const refOf = new Map<number, string>();
    outcomes.forEach((o, i) => {
      if (o.id !== undefined) refOf.set(o.id, said[i]!.ref);
    });
    const byRef = new Map(said.map((s) => [s.ref, s]));
    // Links the lifecycle made, as [earlier ref, later ref, how], once per pair and kind (a batch may
    // report one link in both memories' outcomes).
    const position = new Map(said.map((s, i) => [s.ref, i]));
    const linkKeys = new Map<string, [string, string, "superseded" | "flagged"]>();
    const link = (x: string, y: string, how: "superseded" | "flagged") => {
      const [a, b] = (position.get(x) ?? 0) <= (position.get(y) ?? 0) ? [x, y] : [y, x];
      linkKeys.set(`${a}|${b}|${how}`, [a, b, how]);
    };
    outcomes.forEach((o, i) => {
      const ref = said[i]!.ref;
      for (const s of o.superseded ?? []) link(refOf.get(s.id) ?? "?", ref, "superseded");
      if (o.supersededBy) link(ref, refOf.get(o.supersededBy.id) ?? "?", "superseded");
      for (const f of o.flagged ?? []) link(refOf.get(f.with) ?? "?", ref, "flagged");
    });
    const links = [...linkKeys.values()];
    const oneChain = (a: string, b: string) => {
      const [x, y] = [byRef.get(a)?.chain, byRef.get(b)?.chain];
      return x !== undefined && y !== undefined && x.index === y.index;
    };
    const wrong = links.filter(([a, b]) => !oneChain(a, b));
    const pairOf = (ref: string) => (ref.startsWith("l") ? ref.slice(0, ref.indexOf(".")) : null);
    const lookAlikeLinks = wrong.filter(([a, b]) => pairOf(a) !== null && pairOf(a) === pairOf(b));
    const olderSteps = said.filter((s) => s.chain && s.chain.step < UPDATE_CHAINS[s.chain.index]!.steps.length - 1);
    const linkedOlder = (how: "superseded" | "flagged") =>
      olderSteps.filter((s) => links.some(([a, b, h]) => h === how && a === s.ref && oneChain(a, b))).length;

    let newerFirst = 0;
    let newerAbove = 0;
    for (const [c, chain] of UPDATE_CHAINS.entries()) {
      const response = await cairn.recall({ query: chain.question, k: 10, scope: chain.scope, cwd: tmp });
      const refs = response.results.map((r) => r.ref ?? "");
      const newest = `u${c}.${chain.steps.length - 1}`;
      const rank = (ref: string) => refs.indexOf(ref) + 1 || Number.POSITIVE_INFINITY;
      const olderRanks = chain.steps.slice(0, -1).map((_, step) => rank(`u${c}.${step}`));
      if (rank(newest) === 1) newerFirst += 1;
      const above = rank(newest) < Number.POSITIVE_INFINITY && olderRanks.every((r) => rank(newest) < r);
      if (above) newerAbove += 1;
      if (rank(newest) !== 1)
        misses.push(
          `update  ${chain.question}\n  newest rank ${rank(newest)}: ${chain.steps.at(-1)}\n${top(refs, byRef)}`,
        );
    }
    let lookAlikeFirst = 0;
    for (const [p, pair] of LOOK_ALIKES.entries()) {
      const response = await cairn.recall({ query: pair.question, k: 10, scope: pair.scope, cwd: tmp });
      const refs = response.results.map((r) => r.ref ?? "");
      if (refs[0] === `l${p}.a`) lookAlikeFirst += 1;
      else misses.push(`look-alike  ${pair.question}\n  asked: ${pair.first}\n${top(refs, byRef)}`);
    }
    const report = {
      memories: said.length,
      chains: UPDATE_CHAINS.length,
      lookAlikePairs: LOOK_ALIKES.length,
      settings: values.set,
      update: {
        newerFirst: share(newerFirst, UPDATE_CHAINS.length),
        newerAboveOlder: share(newerAbove, UPDATE_CHAINS.length),
        olderReplaced: share(linkedOlder("superseded"), olderSteps.length),
        olderFlagged: share(linkedOlder("flagged"), olderSteps.length),
      },
      lookAlike: { askedFirst: share(lookAlikeFirst, LOOK_ALIKES.length), wronglyLinked: lookAlikeLinks.length },
      wrongLinks: wrong.map(([a, b, how]) => `${how}: ${byRef.get(a)?.content} <- ${byRef.get(b)?.content}`),
    };
    if (values.json) process.stdout.write(`${JSON.stringify(report)}\n`);
    else {
      console.log(
        `update check: ${report.memories} memories, ${report.chains} update chains, ${report.lookAlikePairs} look-alike pairs` +
          (report.settings.length ? `; settings ${report.settings.join(" ")}` : ""),
      );
      const u = report.update;
      console.log(
        `update questions: newest first ${u.newerFirst.toFixed(3)}, newest above every older ${u.newerAboveOlder.toFixed(3)}`,
      );
      console.log(
        `older statements at remember: replaced ${u.olderReplaced.toFixed(3)}, flagged ${u.olderFlagged.toFixed(3)} (of ${olderSteps.length})`,
      );
      console.log(
        `look-alike questions: asked one first ${report.lookAlike.askedFirst.toFixed(3)}; pairs wrongly linked ${report.lookAlike.wronglyLinked}`,
      );
      console.log(`links between memories of no one chain: ${wrong.length}`);
      for (const line of report.wrongLinks) console.log(`  ${line}`);
      if (values.misses) for (const miss of misses) console.log(`\n${miss}`);
    }
  } finally {
    cairn.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

function top(refs: string[], byRef: Map<string, Said>): string {
  return refs
    .slice(0, 3)
    .map((ref, i) => `  #${i + 1} ${ref}: ${byRef.get(ref)?.content}`)
    .join("\n");
}

await run();
