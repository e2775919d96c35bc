import type { ItemRecord } from "../../../collection/types.js";
import { stoppedByUserPattern } from "./patterns.js";
import { headline } from "./sentences.js";

/**
 * Tools with which the agent asks the user and waits for the answer (Claude Code's AskUserQuestion,
 * Codex's request_user_input, ask_user and question tools elsewhere): their result is the user's choice,
 * in the user's own words or options, so it is as good evidence as a message.
 */
const QUESTION_TOOL = /^(?:AskUserQuestion|ask_?user\w*|request_?user_?input|user_?input|question|elicit\w*)$/i;

/** Claude Code's answer line: `"<question>"="<answer>"`, one pair per question. */
const ANSWER_PAIR = /"([^"]{3,300})"="([^"]{1,300})"/g;

/** The options the agent offered, by label, with their descriptions (the call's arguments), to explain an answer. */
interface Asked {
  options: Map<string, string>;
}

/** Answers a session keeps at most. */
const ANSWERS_KEPT = 6;

/**
 * The user's answers to the agent's questions, one item at a time: a choice per question, with the
 * option's description when the agent gave one. A refused or failed question gives nothing.
 */
export class AnswerReader {
  readonly answers: Array<{ text: string; itemId: number }> = [];
  private readonly asked = new Map<string, Asked>();

  add(item: ItemRecord): void {
    if (!item.callId) return;
    if (item.role === "tool_call") {
      if (item.tool && QUESTION_TOOL.test(item.tool)) this.asked.set(item.callId, { options: optionsIn(item.text) });
      return;
    }
    // A result is matched to its question by the call id (not every agent names the tool on a result).
    const asked = item.role === "tool_result" ? this.asked.get(item.callId) : undefined;
    if (!asked) return;
    this.asked.delete(item.callId);
    if (item.isError || stoppedByUserPattern.test(item.text)) return;
    for (const text of answersIn(item.text, asked)) {
      if (this.answers.length >= ANSWERS_KEPT) return;
      this.answers.push({ text, itemId: item.id });
    }
  }
}

function answersIn(result: string, asked: Asked | undefined): string[] {
  const pairs = [...result.matchAll(ANSWER_PAIR)];
  if (pairs.length === 0) {
    const said = headline(result, 200);
    return said.split(/\s+/).length >= 2 ? [`The user answered the agent's question: "${said}"`] : [];
  }
  return pairs.map(([, question, answer]) => {
    const why = asked?.options.get(answer!);
    return `Asked "${headline(question!, 140)}", the user chose "${answer}"${why ? ` (${headline(why, 120)})` : ""}.`;
  });
}

function optionsIn(text: string): Map<string, string> {
  const options = new Map<string, string>();
  try {
    const args = JSON.parse(text) as {
      questions?: Array<{ options?: Array<{ label?: unknown; description?: unknown }> }>;
    };
    for (const question of args.questions ?? []) {
      for (const option of question.options ?? []) {
        if (typeof option.label === "string" && typeof option.description === "string") {
          options.set(option.label, option.description);
        }
      }
    }
  } catch {
    // Arguments in another shape: the answer is kept without the option's description.
  }
  return options;
}
