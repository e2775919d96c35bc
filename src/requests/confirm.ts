import { request } from "./fields.js";
import { changeReason, memoryId } from "./memoryId.js";

/** The user confirms a memory an agent stored (CLI and library only). */
export const confirmRequest = request({ id: memoryId, reason: changeReason });
