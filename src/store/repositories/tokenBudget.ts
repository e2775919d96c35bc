import type { Database } from "better-sqlite3";
import type { TokenBudgetRepo } from "../contracts/budget.js";
import { Statements } from "../statements.js";

/**
 * The optional daily token budget shared by every process: usage is recorded per UTC day in the store,
 * so retries, parallel runs and the daemon all draw from the same allowance.
 */
export class TokenBudget implements TokenBudgetRepo {
  private readonly sql: Statements;

  constructor(db: Database) {
    this.sql = new Statements(db);
  }

  /** Tokens left today of `dailyLimit` (`extraction.dailyTokenBudget`); Infinity when no budget is set. */
  remaining(now: number, dailyLimit: number): number {
    if (dailyLimit <= 0) return Number.POSITIVE_INFINITY;
    return Math.max(0, dailyLimit - this.usedOn(now));
  }

  usedOn(now: number): number {
    const row = this.sql.get("SELECT tokens_in + tokens_out AS n FROM token_usage WHERE day = ?").get(day(now)) as
      | { n: number }
      | undefined;
    return row?.n ?? 0;
  }

  record(now: number, tokensIn: number, tokensOut: number): void {
    this.sql
      .get(
        `INSERT INTO token_usage (day, tokens_in, tokens_out, calls) VALUES (?, ?, ?, 1)
         ON CONFLICT(day) DO UPDATE SET tokens_in = tokens_in + excluded.tokens_in,
           tokens_out = tokens_out + excluded.tokens_out, calls = calls + 1`,
      )
      .run(day(now), tokensIn, tokensOut);
  }
}

function day(now: number): string {
  return new Date(now).toISOString().slice(0, 10);
}
