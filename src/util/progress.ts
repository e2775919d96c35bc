/**
 * How far one long step of work has come, as the service doing it reports it: services call back with
 * counts and never print; a front end decides whether and how to show them (a bar on a terminal).
 */
export interface WorkProgress {
  /** What is being done: `finding`, `reading`, `extracting`, `embedding`. */
  step: string;
  /** What is counted: `files`, `sessions`, `memories`. */
  unit: string;
  done: number;
  /** How many there are in all, when known (finding files has no total). */
  total?: number;
}

export type OnProgress = (progress: WorkProgress) => void;
