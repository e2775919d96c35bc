import type { MemoryStore } from "../../src/memory/memoryStore.js";
import type { RememberInput } from "../../src/memory/types.js";
import type { LocomoConversation } from "./locomoData.js";
import { sessionTime, type TurnTextOptions, turnText } from "./turnText.js";

/**
 * One memory per dialogue turn: scope = the conversation, ref = dia_id, who = the speaker,
 * provenance = session number and turn position (what a collected transcript would give).
 */
export function locomoMemories(
  conversation: LocomoConversation,
  options: TurnTextOptions & { occurredAt?: boolean },
): (RememberInput & { ref: string; scope: string })[] {
  return conversation.sessions.flatMap((session) => {
    const occurredAt = options.occurredAt === false ? undefined : sessionTime(session.date);
    return session.turns.map((turn) => ({
      content: turnText(turn, session, options),
      ...(occurredAt === undefined ? {} : { occurredAt }),
      scope: conversation.sampleId,
      ref: turn.dia_id,
      who: turn.speaker,
      provenance: { sessionId: `D${session.index}`, itemFrom: Number(turn.dia_id.split(":")[1]) },
    }));
  });
}

export async function ingestLocomo(
  store: MemoryStore,
  conversation: LocomoConversation,
  options: TurnTextOptions & { occurredAt?: boolean },
) {
  const inputs = locomoMemories(conversation, options);
  await store.remember(inputs);
  return inputs;
}
