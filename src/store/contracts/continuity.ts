/** A session's continuity score: how much of the memory it was given at its start it used (seed 004). */
export interface SessionScore {
  sessionId: string;
  /** 0 to 1. */
  score: number;
  /** 0 to 1: how sure the scorer is. */
  confidence: number;
  /** `model`: a model read the session; `evidence`: cairn counted citations and recall hits (no model). */
  method: "model" | "evidence";
  injected: number;
  used: number;
  reasoning: string | null;
  scoredAt: number;
}

/** What continuity scoring keeps: the memories each session was given, and the scores. */
export interface ContinuityRepo {
  /** Records the memories a session was given at its start, in order; a repeated start adds nothing. */
  recordInjection(sessionId: string, memoryIds: readonly number[], at: number): number;
  /**
   * Sessions that were given memory, are not scored yet, and are ready: ended, or extracted by phase 1.
   * Oldest first.
   */
  readyToScore(limit: number): string[];
  /** How many given sessions wait for a score (ready or not). */
  unscored(): number;
  /** The memories a session was given, in the order it saw them. */
  injected(sessionId: string): Array<{ memoryId: number; rank: number }>;
  /** Stores a session's score and each given memory's relevance (clamped to [0, 1]) in one transaction. */
  saveScore(score: SessionScore, relevance: ReadonlyMap<number, number>): void;
  score(sessionId: string): SessionScore | undefined;
  /** Each memory's mean relevance over the sessions that scored it, and how many did. */
  relevanceOf(memoryIds: readonly number[]): Map<number, { mean: number; sessions: number }>;
}
