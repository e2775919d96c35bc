import { cwd, request } from "./fields.js";

/** The session-start injection for a directory. */
export const injectRequest = request({ cwd });
