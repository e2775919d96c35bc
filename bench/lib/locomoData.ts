import { readFileSync } from "node:fs";

/** The parts of a LoCoMo sample the retrieval benchmark reads (see reference/field.md §3.1). */
export interface LocomoTurn {
  speaker: string;
  dia_id: string;
  text: string;
  blip_caption?: string;
}

export interface LocomoQuestion {
  question: string;
  evidence: string[];
  category: number;
}

export interface LocomoSession {
  index: number;
  date: string | undefined;
  turns: LocomoTurn[];
}

export interface LocomoConversation {
  sampleId: string;
  sessions: LocomoSession[];
  questions: LocomoQuestion[];
  /** Evidence pieces of the scored questions that name no turn id and were dropped ("D"). */
  unreadEvidence: string[];
}

interface RawSample {
  sample_id: string;
  conversation: Record<string, unknown>;
  qa: { question: string; evidence?: string[]; category: number }[];
}

/**
 * Evidence ids are sometimes written "D8:6; D9:17" in one string; split them. One id is misspelt
 * "D:11:26" (conv-43): read as the turn it names, D11:26.
 */
function evidencePieces(evidence: string[] | undefined): string[] {
  return (evidence ?? []).flatMap((e) => e.split(/[;,\s]+/)).map((e) => e.replace(/^D:(\d+:\d+)$/, "D$1"));
}

const EVIDENCE_ID = /^D\d+:\d+$/;

/**
 * The evidence ids of a question. A piece that is no id (a bare "D") is dropped; the loader reports
 * it. A well-formed id of a turn that does not exist stays, and counts as a miss.
 */
export function splitEvidence(evidence: string[] | undefined): string[] {
  return evidencePieces(evidence).filter((e) => EVIDENCE_ID.test(e));
}

export function loadLocomo(path: string): LocomoConversation[] {
  const samples = JSON.parse(readFileSync(path, "utf8")) as RawSample[];
  return samples.map((sample) => {
    const sessions: LocomoSession[] = [];
    for (const [key, value] of Object.entries(sample.conversation)) {
      const match = /^session_(\d+)$/.exec(key);
      if (!match || !Array.isArray(value)) continue;
      const index = Number(match[1]);
      const date = sample.conversation[`session_${index}_date_time`];
      sessions.push({ index, date: typeof date === "string" ? date : undefined, turns: value as LocomoTurn[] });
    }
    sessions.sort((a, b) => a.index - b.index);
    const scored = sample.qa.filter((q) => q.category >= 1 && q.category <= 4);
    const questions = scored
      .map((q) => ({ question: q.question, evidence: splitEvidence(q.evidence), category: q.category }))
      .filter((q) => q.evidence.length > 0);
    const unreadEvidence = scored.flatMap((q) => evidencePieces(q.evidence).filter((e) => e && !EVIDENCE_ID.test(e)));
    return { sampleId: sample.sample_id, sessions, questions, unreadEvidence };
  });
}
