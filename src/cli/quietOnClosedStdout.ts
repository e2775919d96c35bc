/**
 * A reader that stops early (`cairn sessions | head -1`) closes our stdout, and the next write fails
 * with EPIPE. The reader has what it wanted, so the command ends quietly with exit code 0, as
 * `git log | head` does; without a listener Node reports the stream error as an uncaught exception.
 * Node ignores SIGPIPE and reports the failed write as an 'error' event on the stream:
 * https://nodejs.org/api/process.html#signal-events
 */
export function quietOnClosedStdout(
  stream: NodeJS.WriteStream = process.stdout,
  exit: (code: number) => void = process.exit,
): void {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") return exit(0);
    throw error;
  });
}
