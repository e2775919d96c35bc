/** Phase 1's output shapes; the store keeps them, so the records live with it. */
export {
  type EntityTriple,
  type ExtractedFact,
  type FactScope,
  type FactType,
  factScopes,
  factTypes,
  type Stage1Extraction,
  type Stage1Output,
} from "../../store/types/stage1Output.js";
