import { request } from "./fields.js";
import { memoryId } from "./memoryId.js";

/** A memory's history: every change and proposal recorded about it, oldest first. */
export const historyRequest = request({ id: memoryId });
