import { type RecallProfileName, recallProfileNames, recallProfiles } from "./recallProfiles.js";

type Tree = { [key: string]: unknown };

const isTree = (value: unknown): value is Tree => value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * The vector leg's weight when `recall.alpha` is unset. The hashed sketch re-encodes the words the
 * keyword leg already scores, so it gets a small share (it adds robustness to typos and word forms,
 * not meaning). Word vectors and embedding models carry evidence the keyword leg lacks (jest and
 * vitest, database and postgres), so they get a larger one: on the coding set the word vectors'
 * figures hold level from 0.2 to 0.5 (docs/experiments/coding-recall-semantic.md).
 */
export function defaultAlpha(embeddingProvider: string): number {
  return embeddingProvider === "hashed" ? 0.15 : 0.3;
}

/**
 * The config tree with the defaults that depend on other settings filled in where the tree leaves
 * them unset: the embedding provider from the recall profile (`wordvec` for agent memory, `hashed`
 * for conversations), then `recall.alpha` from that provider. What the tree sets wins; a value the
 * schema will reject is left for it to report.
 */
export function withDerivedDefaults(raw: unknown): unknown {
  if (raw !== undefined && !isTree(raw)) return raw;
  const tree: Tree = { ...(raw ?? {}) };
  const recall = tree.recall ?? {};
  const embeddings = tree.embeddings ?? {};
  if (!isTree(recall) || !isTree(embeddings)) return tree;
  const profile = recall.profile ?? "agent";
  if (!(recallProfileNames as readonly unknown[]).includes(profile)) return tree;
  const provider = embeddings.provider ?? recallProfiles[profile as RecallProfileName].embeddings;
  tree.embeddings = { ...embeddings, provider };
  if (recall.alpha === undefined && typeof provider === "string") {
    tree.recall = { ...recall, alpha: defaultAlpha(provider) };
  }
  return tree;
}
