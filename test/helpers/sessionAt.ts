import { openCairn } from "../../src/index.js";
import { saidSession } from "./saidSession.js";

/** Stores one finished session in `cwd` whose last item was written at `at` (epoch ms), through the library. */
export function sessionAt(home: string, cwd: string, at: number): void {
  // saidSession writes its items a minute and a second after this: the last at `at`.
  let now = at - 61_000;
  const cairn = openCairn({ home, env: {}, clock: () => now });
  try {
    saidSession(cairn, { id: `s-${at}`, cwd, said: "Keep the cart totals in cents." }, (ms) => {
      now += ms;
      return now;
    });
  } finally {
    cairn.close();
  }
}
