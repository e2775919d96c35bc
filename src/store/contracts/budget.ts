/** Tokens spent per UTC day, shared by every process. */
export interface TokenBudgetRepo {
  /** Tokens left today of `dailyLimit`; Infinity when the limit is 0 (no budget). */
  remaining(now: number, dailyLimit: number): number;
  usedOn(now: number): number;
  record(now: number, tokensIn: number, tokensOut: number): void;
}
