/**
 * The kinds of job the queue holds, named once: the pipeline claims them, and the read path
 * (`memory clear`) and the workers (is a run in progress?) look them up without importing the phases.
 */

/** One job per session: extract its stage-1 output. */
export const PHASE1_KIND = "phase1";
/** One global job: consolidate every workspace. */
export const PHASE2_KIND = "phase2";
/** The key of the one phase-2 job. */
export const PHASE2_KEY = "global";
/** One job per memory: ask the model for the questions it answers. */
export const HINTS_KIND = "prospective_hints";
/** Store upkeep a migration leaves behind (data work frozen SQL cannot do), one job per task key. */
export const MAINTENANCE_KIND = "maintenance";
/** One job per entity: file its waiting facts under the entity's aspects (structural classification). */
export const STRUCTURAL_KIND = "structural_classify";

/**
 * One job per batch of stored memories (at most 200, written together): derive their decisions after
 * the raw write (supersession of the older memories of their scope they replace). The key is the
 * batch's first memory id; the payload names them all (src/memory/lifecycle/reviseJobFor.ts).
 */
export const REVISE_KIND = "revise";

/** The maintenance worker's periodic health cycle; one job whose key is the kind. */
export const HEALTH_KIND = "health";
/** One job per document fed in with `cairn ingest`; the key is the document's id. */
export const DOCUMENT_INGEST_KIND = "document_ingest";
