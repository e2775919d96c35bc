/**
 * The background workers by name, in the order a `cairn run` ticks them. Kept apart from the workers
 * themselves so that `cairn status` lists their stats without loading them (docs/decisions/startup.md);
 * src/workers/workerSet.ts maps each name to its factory, checked by the compiler.
 */
export const WORKER_NAMES = ["retention", "maintenance", "checkpoints", "continuity", "documents"] as const;

export type WorkerName = (typeof WORKER_NAMES)[number];

export const workerNames = (): string[] => [...WORKER_NAMES];
