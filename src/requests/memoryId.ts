import { z } from "zod";
import { text } from "./fields.js";
import { issueMessage } from "./issueMessage.js";
import { requestLimits } from "./limits.js";

/** A stored memory's id (or a review flag's): ids are global, so one names a memory of any scope. */
export const memoryId = z.int({ error: issueMessage }).min(1);

/** Why a person changed a memory: kept in its history. */
export const changeReason = text(requestLimits.refChars, "the limit for a reason").optional();
