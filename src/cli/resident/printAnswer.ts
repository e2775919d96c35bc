import { writeSync } from "node:fs";

/** What a resident process's command line printed, and how it ended. */
export interface Printed {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/**
 * Prints a resident process's answer as the command would have printed it, and sets the exit code.
 * Written to the descriptors directly: `process.stdout` would create a stream (for a pipe, a socket)
 * only to write one text. A descriptor that takes no more for now (EAGAIN, a non-blocking pipe whose
 * reader is slow) gets the rest through its stream, which the process waits for before it ends, so
 * nothing is cut short. A reader that went away (EPIPE, `cairn recall ... | head -1`) had what it
 * wanted: the command ends quietly with exit code 0, as in src/cli/quietOnClosedStdout.ts.
 */
export async function printAnswer(answer: Printed): Promise<void> {
  process.exitCode = answer.exitCode;
  if ((await print(1, answer.stdout)) === "closed") {
    process.exitCode = 0;
    return;
  }
  await print(2, answer.stderr);
}

async function print(fd: 1 | 2, text: string): Promise<"written" | "closed"> {
  let rest = Buffer.from(text, "utf8");
  while (rest.length > 0) {
    try {
      rest = rest.subarray(writeSync(fd, rest));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EPIPE") return "closed";
      if (code !== "EAGAIN") throw error;
      return throughStream(fd === 1 ? process.stdout : process.stderr, rest);
    }
  }
  return "written";
}

function throughStream(stream: NodeJS.WriteStream, rest: Buffer): Promise<"written" | "closed"> {
  return new Promise((done) => {
    stream.once("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE") throw error;
      done("closed");
    });
    stream.write(rest, (error) => {
      if (!error) done("written");
    });
  });
}
