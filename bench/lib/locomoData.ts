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
}

interface RawSample {
  sample_id: string;
  conversation: Record<string, unknown>;
  qa: { question: string; evidence?: string[]; category: number }[];
}

/**
 * Evidence ids are sometimes written "D8:6; D9:17" in one string; split them. One id is misspelt
 * "D:11:26" (conv-43): read as the turn it names, D11:26. A bare "D" names nothing and is dropped;
 * a well-formed id of a turn that does not exist stays, and counts as a miss.
 */
export function splitEvidence(evidence: string[] | undefined): string[] {
  return (evidence ?? [])
    .flatMap((e) => e.split(/[;,\s]+/))
    .map((e) => e.replace(/^D:(\d+:\d+)$/, "D$1"))
    .filter((e) => /^D\d+:\d+$/.test(e));
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
    const questions = sample.qa
      .map((q) => ({ question: q.question, evidence: splitEvidence(q.evidence), category: q.category }))
      .filter((q) => q.category >= 1 && q.category <= 4 && q.evidence.length > 0);
    return { sampleId: sample.sample_id, sessions, questions };
  });
}
