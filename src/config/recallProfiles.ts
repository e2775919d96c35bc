/**
 * Recall profiles: which ranking stages run, in which order, and the leg settings that differ, for
 * the kind of memories a store holds. `agent` (the default) is for facts from coding-agent sessions;
 * `conversation` is for memories that are turns of people talking (LoCoMo). Why each stage is in or
 * out, with the measurements: docs/recall.md.
 */

export const recallProfileNames = ["agent", "conversation"] as const;
export type RecallProfileName = (typeof recallProfileNames)[number];

/** Every ranking stage, in the one order the stages may run in (src/recall/recallStages.ts says why). */
export const stageNames = [
  "timeAnswer",
  "context",
  "author",
  "minScore",
  "graph",
  "head",
  "listLength",
  "rerank",
  "dampening",
  "continuity",
  "predictor",
  "recency",
] as const;
export type StageName = (typeof stageNames)[number];

/** A nested object of recall settings, as a config file writes them. */
type Settings = { [key: string]: unknown };

export interface RecallProfile {
  /** The stages it runs, in order. */
  stages: readonly StageName[];
  /** The embedding provider when `embeddings.provider` is unset. */
  embeddings: "hashed" | "wordvec";
  /** Settings that differ from the schema defaults (which are the conversation profile's). */
  settings: Settings;
}

export const recallProfiles: Record<RecallProfileName, RecallProfile> = {
  conversation: {
    stages: ["timeAnswer", "context", "author", "minScore", "head", "listLength", "dampening", "recency"],
    // The shipped word vectors learned developer documentation, not everyday talk: on LoCoMo they
    // lower R@10 (docs/experiments/coding-recall-semantic.md).
    embeddings: "hashed",
    settings: {},
  },
  agent: {
    stages: ["minScore", "head", "dampening", "continuity", "recency"],
    // Offline semantic signal for tool and code words (jest / vitest, database / postgres).
    embeddings: "wordvec",
    settings: {
      unfoundWords: true,
      // Gravity punishes memories only the vector leg found, which is where paraphrases are; hub
      // penalizes memories about the project's central tools. Resolution (decisions first) stays.
      dampening: { gravityEnabled: false, hubEnabled: false },
      // The index side (docs/experiments/recall-index-levers.md). Facts extracted from adjacent items
      // of a coding session are about different things: a neighbour's text made a fact answer for
      // the one beside it. WordNet's categories of technical nouns match questions by accident (a
      // table migration filed under "change" answered "what changes did we make to ..."). Both stay
      // written, so a switch of profile needs no reindex; they are not searched. The time columns
      // stay searched: they match only a question that names a date.
      contextIndex: { before: 0, after: 0 },
      conceptIndex: { weight: 0 },
      // A flagged pair of coding memory is a setting said twice; on LoCoMo the flags are misread turns
      // of talk, and ranking by them lowered R@5 (docs/lifecycle/supersession.md, "Half-sure pairs").
      recency: { flagged: true },
    },
  },
};

/**
 * The setting that switches each optional stage on or off. minScore and head always run: they
 * bound the work, not the order.
 */
const switches: Partial<Record<StageName, { on: Settings; off: Settings }>> = {
  timeAnswer: { on: {}, off: { timeAnswer: { penalty: 1 } } },
  context: { on: { context: { enabled: true } }, off: { context: { enabled: false } } },
  author: { on: { author: { enabled: true } }, off: { author: { enabled: false } } },
  graph: { on: { graph: { enabled: true } }, off: { graph: { enabled: false } } },
  listLength: { on: {}, off: { listLength: { exponent: 0 } } },
  rerank: { on: { reranker: { enabled: true } }, off: { reranker: { enabled: false } } },
  dampening: {
    on: {},
    off: { dampening: { gravityEnabled: false, hubEnabled: false, resolutionEnabled: false } },
  },
  continuity: { on: { continuity: { enabled: true } }, off: { continuity: { enabled: false } } },
  recency: { on: { recency: { enabled: true } }, off: { recency: { enabled: false } } },
};

const isObject = (value: unknown): value is Settings =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** `over` laid on `under`, key by key; values of `over` win. */
function merged(under: Settings, over: Settings): Settings {
  const out: Settings = { ...under };
  for (const [key, value] of Object.entries(over)) {
    const below = out[key];
    out[key] = isObject(below) && isObject(value) ? merged(below, value) : value;
  }
  return out;
}

/** The settings a profile stands for: its stage switches and its leg settings. */
export function profileSettings(name: RecallProfileName): Settings {
  const profile = recallProfiles[name];
  let settings: Settings = {};
  for (const stage of stageNames) {
    const toggle = switches[stage];
    if (toggle) settings = merged(settings, profile.stages.includes(stage) ? toggle.on : toggle.off);
  }
  return merged(settings, profile.settings);
}

/**
 * The `recall` section as written with the profile's settings beneath it: what the user set wins
 * (`author.enabled: true` under `agent` runs the author stage). An unknown profile name is left for
 * the schema to reject.
 */
export function withProfile(raw: unknown): unknown {
  if (raw !== undefined && !isObject(raw)) return raw;
  const section = raw ?? {};
  const name = section.profile ?? "agent";
  if (typeof name !== "string" || !(recallProfileNames as readonly string[]).includes(name)) return section;
  return merged(profileSettings(name as RecallProfileName), section);
}
