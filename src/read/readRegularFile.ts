import { closeSync, constants, fstatSync, openSync, readFileSync } from "node:fs";
import { redactText } from "../redact/redact.js";
import { CairnError } from "../util/errors.js";

// Windows has neither flag; there a FIFO cannot appear in a workspace folder anyway.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);

/**
 * Reads a file only when it is a regular file. A FIFO or device planted in a workspace would block a
 * plain read forever (and with it `cairn read`, the MCP server and the daemon), so the file is opened
 * without blocking and without following a final symbolic link, and the opened descriptor is checked:
 * nothing can be swapped in between the check and the read. `label` names the file in errors, redacted
 * (it is the URL a caller gave, which can hold anything).
 */
export function readRegularFile(path: string, options: { label: string; maxBytes: number }): string {
  const { label } = options;
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EISDIR") throw folder(label);
    if (code === "ELOOP") throw notRegular(label);
    if (code === "ENOENT") throw new CairnError("memory_not_found", `${redactText(label)}: no such memory file`);
    throw error;
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) throw folder(label);
    if (!stat.isFile()) throw notRegular(label);
    if (stat.size > options.maxBytes) {
      const limit = Math.round(options.maxBytes / 1048576);
      throw new CairnError("memory_too_large", `${redactText(label)} is larger than ${limit} MB`);
    }
    return readFileSync(fd, "utf8");
  } finally {
    closeSync(fd);
  }
}

function folder(label: string): CairnError {
  return new CairnError("memory_is_folder", `${redactText(label)} is a folder; name a file inside it`);
}

function notRegular(label: string): CairnError {
  return new CairnError(
    "memory_not_regular",
    `${redactText(label)} is not a regular file; memory files are plain files`,
  );
}
