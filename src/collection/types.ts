/** Collected sessions and items as the store returns them (the records live with the store). */
export type { ItemRecord, SessionRecord } from "../store/types/sessionRecord.js";
