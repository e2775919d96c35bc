import type { RecallConfig } from "../../src/config/recallConfig.js";
import { type ReviseJobsReport, runReviseJobs } from "../../src/memory/lifecycle/runReviseJobs.js";
import { MemoryStore } from "../../src/memory/memoryStore.js";
import type { RecallResult } from "../../src/memory/types.js";
import { createHashedEmbeddingProvider } from "../../src/providers/embeddings/hashedEmbedding.js";
import { createWordvecEmbeddingProvider } from "../../src/providers/embeddings/wordvec/wordvecEmbedding.js";
import { createRecall } from "../../src/recall/createRecall.js";
import { Storage } from "../../src/store/storage.js";
import { ingestLocomo } from "./ingestLocomo.js";
import type { LocomoConversation, LocomoQuestion } from "./locomoData.js";
import { PlainBm25 } from "./plainBm25.js";
import { type QuestionScore, type Summary, scoreQuestion, summarize } from "./retrievalMetrics.js";
import type { TurnTextOptions } from "./turnText.js";

const K = 10;

export interface LocomoReport {
  overall: Summary;
  categories: Record<string, Summary>;
  baseline: { overall: Summary; categories: Record<string, Summary> };
  setup: {
    conversations: string[];
    text: TurnTextOptions & { occurredAt: boolean };
    embeddings: string;
    vectorIndex: boolean;
    /** "<conversation> <piece>" for each dropped evidence piece that names no turn. */
    unreadEvidence: string[];
    /** Turns the lifecycle took for replaced by a later one, and pairs it flagged for review. */
    superseded: number;
    flagged: number;
  };
}

class Tally {
  private readonly scores = new Map<string, QuestionScore[]>();
  private readonly latencies = new Map<string, number[]>();
  add(category: number, score: QuestionScore, ms: number): void {
    for (const key of ["all", String(category)]) {
      if (!this.scores.has(key)) {
        this.scores.set(key, []);
        this.latencies.set(key, []);
      }
      this.scores.get(key)!.push(score);
      this.latencies.get(key)!.push(ms);
    }
  }
  report(): { overall: Summary; categories: Record<string, Summary> } {
    const categories: Record<string, Summary> = {};
    for (const key of ["1", "2", "3", "4"]) {
      if (this.scores.has(key)) categories[key] = summarize(this.scores.get(key)!, this.latencies.get(key)!);
    }
    return { overall: summarize(this.scores.get("all") ?? [], this.latencies.get("all") ?? []), categories };
  }
}

/**
 * The LoCoMo turn-retrieval benchmark in one store: every conversation ingested (one scope each),
 * every question of categories 1-4 recalled at k = 10 and scored against its gold turns, next to a
 * plain FTS5 BM25 baseline over the same texts. `onMiss` sees each question whose gold turns were not
 * all in the top 10.
 */
export async function evaluateLocomo(options: {
  conversations: LocomoConversation[];
  text: TurnTextOptions & { occurredAt: boolean };
  config: RecallConfig;
  dimensions: number;
  /** The embedding provider (hashed by default; wordvec to measure the shipped word vectors). */
  embeddings?: "hashed" | "wordvec";
  onMiss?: (conversation: LocomoConversation, question: LocomoQuestion, results: RecallResult[]) => void;
  /** What the lifecycle superseded and flagged among the turns. */
  onRevised?: (report: ReviseJobsReport) => void;
}): Promise<LocomoReport> {
  const { conversations, text } = options;
  const storage = Storage.open(":memory:", { dimensions: options.dimensions });
  const { db } = storage;
  const baseline = new PlainBm25();
  try {
    const embeddings =
      options.embeddings === "wordvec"
        ? createWordvecEmbeddingProvider({ dimensions: options.dimensions })
        : createHashedEmbeddingProvider({ dimensions: options.dimensions });
    const { config } = options;
    const recall = createRecall({ storage, provider: embeddings, config });
    const store = new MemoryStore({ storage, embeddings, config, recall });
    for (const conversation of conversations) {
      const inputs = await ingestLocomo(store, conversation, text);
      baseline.add(inputs.map((i) => ({ scope: i.scope, ref: i.ref, body: i.content })));
    }
    // What every remember door does next: the lifecycle judges each new memory against its
    // neighbours. Turns it takes for replaced leave recall, so the figures are those of the path users run.
    const revised = await runReviseJobs({ store });
    options.onRevised?.(revised);
    const ours = new Tally();
    const plain = new Tally();
    for (const conversation of conversations) {
      for (const q of conversation.questions) {
        const t0 = performance.now();
        const response = await store.recall({
          query: q.question,
          k: K,
          scopes: [conversation.sampleId],
          countUsage: false,
        });
        const ms = performance.now() - t0;
        const score = scoreQuestion(
          response.results.map((r) => r.ref ?? ""),
          q.evidence,
        );
        ours.add(q.category, score, ms);
        if (score.recallAt10 < 1) options.onMiss?.(conversation, q, response.results);
        const b0 = performance.now();
        const refs = baseline.search(conversation.sampleId, q.question, K);
        plain.add(q.category, scoreQuestion(refs, q.evidence), performance.now() - b0);
      }
    }
    return {
      ...ours.report(),
      baseline: plain.report(),
      setup: {
        conversations: conversations.map((c) => c.sampleId),
        text,
        embeddings: store.provider.model,
        vectorIndex: storage.vecError === null,
        unreadEvidence: conversations.flatMap((c) => c.unreadEvidence.map((e) => `${c.sampleId} ${e}`)),
        superseded: revised.superseded.length,
        flagged: revised.flagged.length,
      },
    };
  } finally {
    db.close();
    baseline.close();
  }
}
