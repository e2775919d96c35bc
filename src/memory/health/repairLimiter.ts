import type { RepairAction } from "./diagnostics.js";

const HOUR_MS = 3_600_000;

/** The limiter's memory: kept in the store, so a `cairn run` every minute is held to the same budget as the daemon. */
export interface RepairLedger {
  /** Start times of each action's runs in the last hour, oldest first. */
  runs: Partial<Record<RepairAction, number[]>>;
  /** Consecutive runs of each action that did not raise the health score. */
  misses: Partial<Record<RepairAction, number>>;
  /** Actions halted, and since when: they wait until a cycle finds nothing to repair. */
  halted: Partial<Record<RepairAction, number>>;
}

export const emptyLedger = (): RepairLedger => ({ runs: {}, misses: {}, halted: {} });

export interface RepairLimits {
  cooldownMs: number;
  hourlyBudget: number;
  haltAfter: number;
}

/** Why an action may not run now, or undefined when it may. */
export function blockedBecause(
  ledger: RepairLedger,
  action: RepairAction,
  now: number,
  limits: RepairLimits,
): string | undefined {
  if (ledger.halted[action] !== undefined) {
    return `halted: ${limits.haltAfter} runs in a row did not improve health; it waits until health is good again`;
  }
  const runs = (ledger.runs[action] ?? []).filter((at) => at > now - HOUR_MS);
  const last = runs.at(-1);
  if (last !== undefined && now - last < limits.cooldownMs) {
    return `cooling down (${Math.ceil((limits.cooldownMs - (now - last)) / 1000)} s left)`;
  }
  if (runs.length >= limits.hourlyBudget) return `hourly budget of ${limits.hourlyBudget} runs spent`;
  return undefined;
}

/**
 * Records one run of `action` and whether the health score rose after it: `haltAfter` runs in a row
 * that did not raise it halt the action, so a repair that cannot help never spins. Pure: returns the
 * new ledger.
 */
export function recordRun(
  ledger: RepairLedger,
  action: RepairAction,
  now: number,
  improved: boolean,
  limits: RepairLimits,
): RepairLedger {
  const runs = [...(ledger.runs[action] ?? []).filter((at) => at > now - HOUR_MS), now];
  const misses = improved ? 0 : (ledger.misses[action] ?? 0) + 1;
  const halted = { ...ledger.halted };
  if (misses >= limits.haltAfter) halted[action] = now;
  return { runs: { ...ledger.runs, [action]: runs }, misses: { ...ledger.misses, [action]: misses }, halted };
}

/** A cycle that found nothing to repair: health is good, so every halt and miss count is lifted. */
export function healthy(ledger: RepairLedger): RepairLedger {
  return { runs: ledger.runs, misses: {}, halted: {} };
}
