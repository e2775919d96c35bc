import type { LocomoSession, LocomoTurn } from "./locomoData.js";

export interface TurnTextOptions {
  speaker: boolean;
  caption: boolean;
  /** Prefix the session's date to the text. */
  date: boolean;
}

/**
 * A LoCoMo session time ("1:56 pm on 8 May, 2023") as epoch ms, read as UTC: what a real memory
 * would carry as `occurredAt`. Undefined when it does not parse.
 */
export function sessionTime(date: string | undefined): number | undefined {
  const match = /(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+(\w+),?\s+(\d{4})/i.exec(date ?? "");
  if (!match) return undefined;
  const months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
  const month = months.indexOf((match[5] ?? "").slice(0, 3).toLowerCase());
  if (month < 0) return undefined;
  const hour = (Number(match[1]) % 12) + ((match[3] ?? "").toLowerCase() === "pm" ? 12 : 0);
  return Date.UTC(Number(match[6]), month, Number(match[4]), hour, Number(match[2]));
}

/**
 * What a memory of one dialogue turn carries: who said it, what was said, a shared image's caption
 * (the text a real transcript would have for the image) and, optionally, the session's date.
 */
export function turnText(turn: LocomoTurn, session: LocomoSession, options: TurnTextOptions): string {
  let text = options.speaker ? `${turn.speaker}: ${turn.text}` : turn.text;
  if (options.caption && turn.blip_caption) text += ` [shared an image: ${turn.blip_caption}]`;
  if (options.date && session.date) text = `(${session.date}) ${text}`;
  return text;
}
