import { request } from "./fields.js";
import { changeReason, memoryId } from "./memoryId.js";

/** Tombstones one memory (its history stays; `restore` brings it back). */
export const forgetRequest = request({ id: memoryId, reason: changeReason });
