import type { LocomoSession, LocomoTurn } from "./locomoData.js";

export interface TurnTextOptions {
  speaker: boolean;
  caption: boolean;
  date: boolean;
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
