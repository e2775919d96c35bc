// The stored shapes of sessions and items belong to their repositories; the collection names them here too.
export type { ItemRecord } from "../store/repositories/itemsRepository.js";
export type { SessionRecord } from "../store/repositories/sessionsRepository.js";
