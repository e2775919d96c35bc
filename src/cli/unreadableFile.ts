/** Node's codes for a file a user named that cannot be read, in the words they act on. */
const REASONS: Record<string, string> = {
  ENOENT: "no such file",
  EISDIR: "a folder, not a file",
  ENOTDIR: "a file is in the way",
  EACCES: "permission denied",
  EPERM: "permission denied",
};

/**
 * Why a file named on the command line (`remember --file`, `--transcript-file`, `import`) could not be
 * read: Node's code, which a search finds, with what it means (`EISDIR: a folder, not a file`).
 */
export function unreadableFile(error: unknown): { code: string; reason: string } {
  const code = (error as NodeJS.ErrnoException).code ?? "error";
  const words = REASONS[code];
  return { code, reason: words ? `${code}: ${words}` : code };
}
