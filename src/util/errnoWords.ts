/**
 * Node's codes for a path a user named that cannot be used, in the words they act on. One table for
 * every message that quotes such a code (the memory root, a file named on the command line).
 */
const WORDS: Record<string, string> = {
  ENOENT: "no such file",
  EISDIR: "a folder, not a file",
  EEXIST: "a file is in the way",
  ENOTDIR: "a file is in the way",
  EACCES: "permission denied",
  EPERM: "permission denied",
  EROFS: "the file system is read-only",
};

/** The error's code (`error` when it has none) and, when the code is one a user acts on, its words. */
export function errnoWords(error: unknown): { code: string; words: string | undefined } {
  const code = (error as NodeJS.ErrnoException).code ?? "error";
  return { code, words: WORDS[code] };
}
