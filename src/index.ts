/**
 * cairn as a library: `openCairn()` gives the same operations as the CLI, including the push API
 * (`appendHistory`, `endSession`, `remember`, `recall`) for agents that feed sessions directly.
 */
export { Cairn, type OpenCairnOptions, openCairn, type PushItem, type PushSession } from "./cairn.js";
export type { ScanReport } from "./collection/scanner.js";
export type { CairnConfig } from "./config/schema.js";
export type { RecallResponse, RecallResult, RememberInput, RememberOutcome } from "./memory/types.js";
export type { Phase1Report } from "./pipeline/phase1/runPhase1.js";
export type { Phase2Report } from "./pipeline/phase2/runPhase2.js";
export type { EmbeddingProvider } from "./providers/embeddings/types.js";
export type { LlmProvider, LlmRequest, LlmResult } from "./providers/llm/types.js";
export type { Injection, RememberedFit } from "./read/inject.js";
export { readMemoryUrl, resolveMemoryUrl } from "./read/memoryUrl.js";
export type { PredictorCandidate, PredictorScorer } from "./recall/predictor.js";
export { requestLimits } from "./requests/limits.js";
export type { ItemRole, SessionInfo, SessionItem, SessionKind } from "./sources/types.js";
export { CairnError, type CairnErrorCode, cairnErrorStatus } from "./util/errors.js";
