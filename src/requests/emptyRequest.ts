import { request } from "./fields.js";

/** Requests that take no input (status, a pipeline run): any field is a mistake. */
export const emptyRequest = request({});
