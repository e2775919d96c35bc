import type { MemoryStore } from "../../src/memory/memoryStore.js";
import type { RememberInput } from "../../src/memory/types.js";
import type { LocomoConversation } from "./locomoData.js";
import { type TurnTextOptions, turnText } from "./turnText.js";

/**
 * One memory per dialogue turn: scope = the conversation, ref = dia_id, who = the speaker,
 * provenance = session number and turn position (what a collected transcript would give).
 */
export function locomoMemories(
  conversation: LocomoConversation,
  options: TurnTextOptions,
): (RememberInput & { ref: string; scope: string })[] {
  return conversation.sessions.flatMap((session) =>
    session.turns.map((turn) => ({
      content: turnText(turn, session, options),
      scope: conversation.sampleId,
      ref: turn.dia_id,
      who: turn.speaker,
      provenance: { sessionId: `D${session.index}`, itemFrom: Number(turn.dia_id.split(":")[1]) },
    })),
  );
}

export async function ingestLocomo(store: MemoryStore, conversation: LocomoConversation, options: TurnTextOptions) {
  const inputs = locomoMemories(conversation, options);
  await store.remember(inputs);
  return inputs;
}
