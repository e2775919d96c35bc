/**
 * While a command holds leases, SIGINT and SIGTERM first give them back (the jobs are pending again at
 * once instead of after the lease time), then end the process with the usual 128 + signal code.
 * Returns a function that removes the handlers.
 */
export function releaseOnSignal(
  release: () => number,
  options: { exit?: (code: number) => void; write?: (line: string) => void } = {},
): () => void {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const write = options.write ?? ((line: string) => process.stderr.write(line));
  const handler = (signal: NodeJS.Signals) => {
    let released = 0;
    try {
      released = release();
    } catch {
      // The leases expire on their own.
    }
    write(
      `cairn: stopped by ${signal}; ${released} leased job${released === 1 ? "" : "s"} handed back for the next run\n`,
    );
    exit(signal === "SIGINT" ? 130 : 143);
  };
  process.once("SIGINT", handler);
  process.once("SIGTERM", handler);
  return () => {
    process.off("SIGINT", handler);
    process.off("SIGTERM", handler);
  };
}
