import { readFileSync } from "node:fs";

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/**
 * CPU milliseconds the main thread has used, from /proc (Linux), or undefined elsewhere. Unlike
 * process.cpuUsage it leaves out the other threads (a fake model in a worker, libuv's pool, GC helpers),
 * and unlike wall time it does not grow when other programs take the CPU.
 */
export function mainThreadCpuMs(): number | undefined {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8");
    // Fields after the command name (which may hold spaces, so split after its closing parenthesis):
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}
