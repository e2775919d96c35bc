import { errnoWords } from "../util/errnoWords.js";

/**
 * Why a file named on the command line (`remember --file`, `--transcript-file`, `import`) could not be
 * read: Node's code, which a search finds, with what it means (`EISDIR: a folder, not a file`).
 */
export function unreadableFile(error: unknown): { code: string; reason: string } {
  const { code, words } = errnoWords(error);
  return { code, reason: words ? `${code}: ${words}` : code };
}
