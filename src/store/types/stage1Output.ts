export const factTypes = ["fact", "preference", "decision", "procedural", "semantic"] as const;
export type FactType = (typeof factTypes)[number];

/** A discrete memory extracted from a session, pointing back to the items it came from. */
export interface ExtractedFact {
  content: string;
  type: FactType;
  confidence: number;
  /** Item ids (the `items.id` of the session) supporting the fact. */
  evidence: number[];
  /**
   * Words the fact should be found by that it does not contain (aliases, abbreviations and their
   * expansions, the general category), as the model wrote them; absent from offline extraction.
   */
  terms?: string[];
  /**
   * Whether the fact holds for this repository only or for the user everywhere, as the model said;
   * absent from offline extraction and from answers stored before the field (the wording decides).
   */
  scope?: FactScope;
}

export const factScopes = ["project", "global"] as const;
export type FactScope = (typeof factScopes)[number];

export interface EntityTriple {
  source: string;
  relationship: string;
  target: string;
  confidence: number;
}

/** What phase 1 produces for one session (the model's answer after validation, or the offline extractor's). */
export interface Stage1Extraction {
  rolloutSummary: string;
  rolloutSlug: string | null;
  rawMemory: string;
  facts: ExtractedFact[];
  entities: EntityTriple[];
}

export interface Stage1Output extends Stage1Extraction {
  sessionId: string;
  projectKey: string | null;
  cwd: string | null;
  agent: string | null;
  /** The session's updated_at that this output reflects: the phase-2 input watermark. */
  sourceUpdatedAt: number;
  itemFrom: number | null;
  itemTo: number | null;
  generator: string;
  generatedAt: number;
  usageCount: number;
  lastUsage: number | null;
  selectedForPhase2: boolean;
  selectedForPhase2SourceUpdatedAt: number | null;
}
