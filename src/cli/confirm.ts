import { createInterface } from "node:readline/promises";
import { CairnError } from "../util/errors.js";

/**
 * Asks before a command deletes something; `command` names it in the refusal. Off a terminal there is
 * no one to ask, so the command must be given --yes.
 */
export async function confirm(command: string, question: string): Promise<void> {
  if (!process.stdin.isTTY) {
    throw new CairnError(
      "needs_confirmation",
      `${command} needs --yes when not run from a terminal; nothing was deleted`,
    );
  }
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  const answer = await prompt.question(question);
  prompt.close();
  if (!/^y(es)?$/i.test(answer.trim())) throw new CairnError("cancelled", "cancelled; nothing was deleted");
}
