import { type RecallProfileName, recallProfileNames, recallProfiles } from "./recallProfiles.js";
import { vectorLegDefaultsFor } from "./vectorLegDefaults.js";

type Tree = { [key: string]: unknown };

const isTree = (value: unknown): value is Tree => value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * The config tree with the defaults that depend on other settings filled in where the tree leaves
 * them unset: the embedding provider from the recall profile (`wordvec` for agent memory, `hashed`
 * for conversations), then `recall.alpha` and `recall.vectorRange` from that provider
 * (vectorLegDefaults.ts). What the tree sets wins, key by key; a value the schema will reject is left
 * for it to report.
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
  if (typeof provider !== "string") return tree;
  const leg = vectorLegDefaultsFor(provider);
  const range = recall.vectorRange ?? {};
  tree.recall = {
    ...recall,
    alpha: recall.alpha ?? leg.alpha,
    vectorRange: isTree(range) ? { floor: leg.floor, ceiling: leg.ceiling, ...range } : range,
  };
  return tree;
}
