import { request } from "./fields.js";
import { changeReason, memoryId } from "./memoryId.js";

/** Brings back a forgotten or replaced memory. */
export const restoreRequest = request({ id: memoryId, reason: changeReason });
