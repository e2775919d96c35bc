import type { Migration } from "../migration.js";
import { collection } from "./001_collection.js";
import { stage1 } from "./002_stage1.js";
import { memory } from "./003_memory.js";
import { concepts } from "./004_concepts.js";
import { cwdProjectIndex } from "./005_cwd_project_index.js";
import { embeddingModelIndex } from "./006_embedding_model_index.js";
import { lifecycle } from "./007_lifecycle.js";
import { structural } from "./008_structural.js";
import { sessionTranscripts } from "./009_session_transcripts.js";
import { sessionPositions } from "./010_session_positions.js";
import { searchTerms } from "./011_search_terms.js";
import { rememberedIndex } from "./012_remembered_index.js";
import { noProjectScope } from "./013_no_project_scope.js";
import { offlineCommandFacts } from "./014_offline_command_facts.js";
import { jobStarted } from "./015_job_started.js";
import { excludedRebuild } from "./016_excluded_rebuild.js";
import { offlineEvidenceRefresh } from "./017_offline_evidence_refresh.js";
import { neighbourTextSwitch } from "./018_neighbour_text_switch.js";
import { subjectKeysIndex } from "./019_subject_keys.js";
import { documents } from "./020_documents.js";
import { sessionCheckpoints } from "./021_session_checkpoints.js";
import { continuity } from "./022_continuity.js";

/** Every schema step in order. Append only: a shipped migration never changes. */
export const migrations: readonly Migration[] = [
  collection,
  stage1,
  memory,
  concepts,
  cwdProjectIndex,
  embeddingModelIndex,
  lifecycle,
  structural,
  sessionTranscripts,
  sessionPositions,
  searchTerms,
  rememberedIndex,
  noProjectScope,
  offlineCommandFacts,
  jobStarted,
  excludedRebuild,
  offlineEvidenceRefresh,
  neighbourTextSwitch,
  subjectKeysIndex,
  documents,
  sessionCheckpoints,
  continuity,
];
