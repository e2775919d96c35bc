/**
 * The runs of words a table knows, scanning left to right: at each position the longest run (from
 * `longest` words down to `shortest`) that `lookup` knows is taken and the scan resumes after it, so
 * runs never overlap ("test runner" is one run, not "test" and then "runner").
 */
export function longestRuns<T>(
  words: readonly string[],
  options: { longest: number; shortest: number; lookup: (run: readonly string[]) => T | undefined },
): Array<{ run: string[]; value: T }> {
  const out: Array<{ run: string[]; value: T }> = [];
  let i = 0;
  while (i < words.length) {
    let length = 1;
    for (let n = Math.min(options.longest, words.length - i); n >= options.shortest; n--) {
      const run = words.slice(i, i + n);
      const value = options.lookup(run);
      if (value === undefined) continue;
      out.push({ run, value });
      length = n;
      break;
    }
    i += length;
  }
  return out;
}
